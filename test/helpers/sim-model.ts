// A CSV of simulated loan decisions (proxy bias) and a logistic built-in model trained on it,
// written to a folder: the fixture of the CLI tests that call a model on a data file.
import { join } from 'node:path';
import type { Table } from '../../src/data/table.js';
import { simulate } from '../../src/data/simulator.js';
import { Rng } from '../../src/engine/rng.js';
import { Classifier } from '../../src/models/classifier/classifier.js';
import { writeCsv } from '../../src/node/csv.js';
import { saveModel } from '../../src/node/model-file.js';
import { getEngine } from './engine.js';

export async function writeSimModel(dir: string): Promise<{ data: string; modelFile: string; table: Table }> {
  const engine = await getEngine();
  const data = join(dir, 'data.csv');
  const modelFile = join(dir, 'model.json');
  const table = simulate(new Rng(engine, 11), { n: 1200, bias: 'proxy' }).table;
  await writeCsv(data, table);
  const { model } = Classifier.train(engine, table, { label: 'approved', positive: 'yes', hidden: [], epochs: 5, valFraction: 0, seed: 1 });
  await saveModel(modelFile, model);
  model.dispose();
  return { data, modelFile, table };
}
