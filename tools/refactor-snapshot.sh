#!/usr/bin/env bash
# A refactor's byte check of the CLI: fixed-seed runs of `lucid audit` (with a model and with --pred), `lucid metrics`,
# `lucid check` (on a predictions column and with --model), `lucid quality`, `lucid fale` and `lucid demo` (short
# GANs), and the --help of every command, written to one folder with timestamps, durations and the checkout's and
# the folder's paths masked. Run it on the build before and after a change and compare with `diff -r`.
#
#   bash tools/refactor-snapshot.sh DIR        (after npm run build; DIR is created afresh)
set -euo pipefail
out=$(realpath -m "$1")
rm -rf "$out" && mkdir -p "$out/work"
root=$(cd "$(dirname "$0")/.." && pwd)
lucid() { node "$root/bin/lucid.js" "$@"; }
cd "$out/work"
export LUCID_GAN_CACHE=off LUCID_DATA_DIR=/nonexistent
lucid dataset export sim --bias intersectional --rows 3000 --seed 1 --out train.csv > /dev/null
lucid dataset export sim --bias intersectional --rows 1200 --seed 2 --score p --out test.csv > /dev/null
lucid model train --data train.csv --label approved --positive yes --epochs 40 --out m.json --quiet > "$out/train.txt"
lucid model predict --model m.json --data test.csv --out scored.csv > "$out/predict.txt"
small=(--gan-epochs 4 -n 150 --intersection-rows 50 --fale-bootstrap 3 --seed 3 --gan-rows 800 --gan-schedule fast)
# status is kept, not fatal: a failed policy check exits 3
run() { local name=$1; shift; set +e; "$@" > "$out/$name.stdout" 2> "$out/$name.stderr"; echo $? > "$out/$name.status"; set -e; }
run audit-model lucid audit --data test.csv --label approved --positive yes --protected sex,group,age \
  --protected-edges age=18,30,50,90 --model m.json --drop p --suppress-below 20 "${small[@]}" --quiet \
  --policy "$root/examples/fairness.json" --markdown "$out/audit-model.md" --junit "$out/audit-model.xml" --out audit-model
run audit-model-json lucid audit --data test.csv --label approved --positive yes --protected sex,group \
  --model m.json --drop p "${small[@]}" --quiet --format json --out audit-model-json
run audit-pred lucid audit --data test.csv --label approved --positive yes --protected sex,group,age \
  --protected-bins 3 --pred p --gan-seeds 2 --no-rejection "${small[@]}" --quiet --out audit-pred
run audit-pred-flipped lucid audit --data test.csv --label approved --positive no --favourable negative \
  --protected sex,group --pred p --threshold 0.4 "${small[@]}" --quiet --format json --out audit-pred-flipped
for f in table json csv; do
  run metrics-$f lucid metrics --data scored.csv --label approved --positive yes --pred preds \
    --group sex --group group --bootstrap 50 --seed 4 --format $f
done
run metrics-intersect lucid metrics --data scored.csv --label approved --positive yes --pred p --threshold 0.6 \
  --group sex --group group --intersect --suppress-below 10
run check lucid check --data scored.csv --policy "$root/examples/fairness.json" --junit "$out/check.xml" --markdown "$out/check.md"
run check-json lucid check --data scored.csv --policy "$root/examples/fairness.json" --format json
run fale lucid fale --model m.json --data test.csv --label approved --positive yes --drop p --protected sex=Female \
  --feature income,group --bins 6 --format json
run check-model lucid check --data test.csv --policy "$root/examples/fairness-canonical.json" --model m.json --drop p \
  --gan-epochs 4 --gan-rows 800 --gan-schedule fast --gan-seeds 2 --seed 3 --quiet --format json
run check-model-text lucid check --data test.csv --policy "$root/examples/fairness.json" --model m.json --drop p \
  --gan-epochs 4 --gan-rows 800 --gan-schedule fast --gan-seeds 2 --seed 3 --quiet --markdown "$out/check-model.md"
for f in table json; do
  run quality-$f lucid quality --real test.csv --synthetic audit-model/canonical-positive.csv --model m.json \
    --ignore p,approved,gan_seed --condition preds --format $f
done
run demo lucid demo --out demo --gan-epochs 4 --seed 3 --quiet
# every command's --help
lucid --help > "$out/help.txt"
for c in $(lucid --help | sed -n '/^Commands:/,$p' | awk 'NR>1 && /^  [a-z]/ {print $1}'); do
  [ "$c" = help ] && continue
  lucid $c --help > "$out/help-$c.txt" 2>&1 || true
  for s in $(lucid $c --help 2>/dev/null | sed -n '/^Commands:/,$p' | awk 'NR>1 && /^  [a-z]/ {print $1}'); do
    [ "$s" = help ] || lucid $c $s --help > "$out/help-$c-$s.txt" 2>&1 || true
  done
done
# reports and files next to the outputs; the training data and model stay in work/
for d in audit-model audit-model-json audit-pred audit-pred-flipped demo; do [ -d "$d" ] && cp -r "$d" "$out/$d.dir"; done
cp scored.csv "$out/scored.csv"
rm -rf "$out/work"
# mask what changes from run to run: times, durations, creation stamps
find "$out" -type f \( -name '*.html' -o -name '*.json' -o -name '*.txt' -o -name '*.stdout' -o -name '*.stderr' -o -name '*.md' -o -name '*.xml' -o -name '*.csv' \) -print0 |
  xargs -0 sed -i -E -e "s#$out#<out>#g" -e "s#$root#<root>#g" \
    -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z/<time>/g' \
    -e 's/"(ms|seconds|elapsed|wallMs|timings)":[ ]*[0-9.e+-]+/"\1":<n>/g' \
    -e 's/time="[0-9.]+"/time="<n>"/g' \
    -e 's/[0-9]+(\.[0-9]+)? ?(ms|s)\b/<dur>/g'
# and every "timings" object of a JSON file or JSON output
for f in $(grep -rl '"timings"' "$out" || true); do
  node -e 'const fs=require("fs");const f=process.argv[1];const t=fs.readFileSync(f,"utf8");
    const strip=(s)=>s.replace(/"timings": ?\{[^{}]*\}/g,"\"timings\":<masked>");fs.writeFileSync(f,strip(t));' "$f"
done
