#!/usr/bin/env bash
# Dumps every output of the pipeline (logical models, decisions, cost reports, the
# artefacts of `cosmap generate`, the Mermaid view and the HTML report) for every model
# file of the repository (examples, tests, bad models, the fuzz corpus) and the
# synthetic models of 100 and 1,000 aggregates, so a speed change can be checked to
# change no byte:
#
#   scripts/dump-outputs.sh /tmp/before     # on the commit before
#   scripts/dump-outputs.sh /tmp/after      # on the change
#   diff -r /tmp/before /tmp/after
#
# Builds `crates/cosmap-codegen/examples/dump_outputs.rs` in release mode (respects
# CARGO_TARGET_DIR).
set -euo pipefail
out=${1:?usage: scripts/dump-outputs.sh OUT_DIR}
cd "$(dirname "$0")/.."
rm -rf "$out"
mkdir -p "$out"
cargo build --release -q -p cosmap-codegen --example dump_outputs
bin=${CARGO_TARGET_DIR:-target}/release/examples/dump_outputs
{
  find examples tests crates -name '*.json' -not -path '*/target/*' -not -path '*/node_modules/*'
  find fuzz/corpus -type f
} | LC_ALL=C sort >"$out.inputs"
# Several processes, a few hundred files each (the synthetic models in their own).
xargs -a "$out.inputs" -n 200 -P 2 "$bin" "$out"
"$bin" "$out" synthetic:100 synthetic:1000
echo "$(wc -l <"$out.inputs") model files and 2 synthetic models dumped under $out"
