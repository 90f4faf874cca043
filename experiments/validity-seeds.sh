#!/bin/sh
# EXPERIMENTS.md §3: extra seeds for the validity comparison (direct view), after run-paper.mjs (seed 0).
# Each run writes out/experiments/lucid-gan-seeds/s<seed>/<tag>/summary.json; summarise.mjs reads them.
set -e
for s in 1 2; do
  for m in logistic mlp; do
    for mode in paper consistency; do
      node experiments/lucid-gan-paper.mjs --dataset compas --model $m --view direct --mode $mode --seed $s --out out/experiments/lucid-gan-seeds/s$s
    done
  done
  for m in logistic mlp; do
    node experiments/lucid-gan-paper.mjs --dataset adult --model $m --view direct --mode paper --seed $s --out out/experiments/lucid-gan-seeds/s$s
  done
done
