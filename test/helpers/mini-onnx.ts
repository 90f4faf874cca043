// A reference evaluator for the small ONNX graphs tools/onnx/make_model.py writes (MatMul, Add,
// Relu, Sigmoid over float32), behind the same API as onnxruntime (OrtLike). The adapter tests use
// it where onnxruntime-node is not installed, so the committed .onnx files (their protobuf, graph
// and weights) and the ONNX adapter are checked on every machine. Float64 arithmetic.
import type { OrtLike, OrtSessionLike, OrtTensorLike } from '../../src/models/onnx.js';

type Field = { no: number; wire: number; value: number | Uint8Array };

/** The fields of one protobuf message (varints as numbers, length-delimited as bytes). */
function fields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let i = 0;
  const varint = (): number => {
    let v = 0;
    let mul = 1;
    for (;;) {
      const b = buf[i++];
      v += (b & 0x7f) * mul;
      if (b < 0x80) return v;
      mul *= 128;
    }
  };
  while (i < buf.length) {
    const key = varint();
    const no = Math.floor(key / 8);
    const wire = key & 7;
    if (wire === 0) out.push({ no, wire, value: varint() });
    else if (wire === 2) {
      const len = varint();
      out.push({ no, wire, value: buf.subarray(i, i + len) });
      i += len;
    } else if (wire === 5) {
      out.push({ no, wire, value: buf.subarray(i, i + 4) });
      i += 4;
    } else if (wire === 1) {
      out.push({ no, wire, value: buf.subarray(i, i + 8) });
      i += 8;
    } else throw new Error(`mini-onnx: unsupported wire type ${wire}`);
  }
  return out;
}

const text = (b: Uint8Array): string => new TextDecoder().decode(b);
const bytesOf = (fs: Field[], no: number): Uint8Array[] =>
  fs.filter((f) => f.no === no).map((f) => f.value as Uint8Array);
const strings = (fs: Field[], no: number): string[] => bytesOf(fs, no).map(text);

/** int64 values of a repeated field, packed or not. */
function ints(fs: Field[], no: number): number[] {
  const out: number[] = [];
  for (const f of fs.filter((x) => x.no === no)) {
    if (f.wire === 0) out.push(f.value as number);
    else {
      const inner = new Uint8Array(f.value as Uint8Array);
      let i = 0;
      while (i < inner.length) {
        let v = 0;
        let mul = 1;
        for (;;) {
          const b = inner[i++];
          v += (b & 0x7f) * mul;
          if (b < 0x80) break;
          mul *= 128;
        }
        out.push(v);
      }
    }
  }
  return out;
}

interface Mat {
  dims: number[];
  data: Float64Array;
}

function tensorProto(b: Uint8Array): { name: string; value: Mat } {
  const fs = fields(b);
  const dims = ints(fs, 1);
  const type = ints(fs, 2)[0];
  if (type !== 1) throw new Error(`mini-onnx: only float32 initializers, got data_type ${type}`);
  const n = dims.reduce((a, d) => a * d, 1);
  const raw = bytesOf(fs, 9)[0];
  let data: Float64Array;
  if (raw) {
    const copy = new Uint8Array(raw);
    data = Float64Array.from(new Float32Array(copy.buffer, 0, n));
  } else {
    const packed = new Uint8Array(bytesOf(fs, 4)[0] ?? new Uint8Array(0));
    data = Float64Array.from(new Float32Array(packed.buffer, 0, n));
  }
  return { name: strings(fs, 8)[0], value: { dims, data } };
}

function matmul(a: Mat, b: Mat): Mat {
  const [n, k] = a.dims;
  const [k2, m] = b.dims;
  if (k !== k2) throw new Error(`mini-onnx: MatMul [${a.dims}]·[${b.dims}]`);
  const out = new Float64Array(n * m);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < m; j++) {
      let s = 0;
      for (let t = 0; t < k; t++) s += a.data[i * k + t] * b.data[t * m + j];
      out[i * m + j] = s;
    }
  return { dims: [n, m], data: out };
}

function add(a: Mat, b: Mat): Mat {
  const m = a.dims[a.dims.length - 1];
  if (b.data.length !== m) throw new Error(`mini-onnx: Add broadcasts a bias of the last axis only`);
  return { dims: a.dims, data: a.data.map((v, i) => v + b.data[i % m]) };
}

const map = (a: Mat, f: (v: number) => number): Mat => ({ dims: a.dims, data: a.data.map(f) });

class Session implements OrtSessionLike {
  readonly inputNames: string[];
  readonly outputNames: string[];
  private readonly nodes: { op: string; inputs: string[]; outputs: string[] }[];
  private readonly init = new Map<string, Mat>();

  constructor(bytes: Uint8Array) {
    const graph = fields(bytesOf(fields(bytes), 7)[0]);
    for (const t of bytesOf(graph, 5)) {
      const { name, value } = tensorProto(t);
      this.init.set(name, value);
    }
    this.nodes = bytesOf(graph, 1).map((nb) => {
      const f = fields(nb);
      return { op: strings(f, 4)[0], inputs: strings(f, 1), outputs: strings(f, 2) };
    });
    const names = (no: number) => bytesOf(graph, no).map((v) => strings(fields(v), 1)[0]);
    this.inputNames = names(11).filter((n) => !this.init.has(n));
    this.outputNames = names(12);
  }

  async run(feeds: Record<string, unknown>): Promise<Record<string, OrtTensorLike>> {
    const env = new Map(this.init);
    for (const [name, t] of Object.entries(feeds)) {
      const x = t as { dims: number[]; data: Float32Array | Float64Array };
      env.set(name, { dims: [...x.dims], data: Float64Array.from(x.data) });
    }
    for (const node of this.nodes) {
      const a = node.inputs.map((n) => {
        const v = env.get(n);
        if (!v) throw new Error(`mini-onnx: ${node.op} reads "${n}", which nothing defines`);
        return v;
      });
      let r: Mat;
      if (node.op === 'MatMul') r = matmul(a[0], a[1]);
      else if (node.op === 'Add') r = add(a[0], a[1]);
      else if (node.op === 'Relu') r = map(a[0], (v) => Math.max(0, v));
      else if (node.op === 'Sigmoid') r = map(a[0], (v) => 1 / (1 + Math.exp(-v)));
      else throw new Error(`mini-onnx: unsupported op ${node.op}`);
      env.set(node.outputs[0], r);
    }
    const out: Record<string, OrtTensorLike> = {};
    for (const name of this.outputNames) {
      const v = env.get(name)!;
      out[name] = { dims: v.dims, data: v.data, type: 'float64' };
    }
    return out;
  }
}

/** An onnxruntime stand-in for the graphs make_model.py writes. */
export const miniOrt: OrtLike = {
  Tensor: class {
    constructor(
      readonly type: string,
      readonly data: Float32Array | Float64Array,
      readonly dims: readonly number[],
    ) {}
  } as unknown as OrtLike['Tensor'],
  InferenceSession: {
    async create(pathOrBytes: string | Uint8Array): Promise<OrtSessionLike> {
      if (typeof pathOrBytes === 'string') throw new Error('mini-onnx: pass the model bytes');
      return new Session(pathOrBytes);
    },
  },
};
