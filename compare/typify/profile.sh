#!/usr/bin/env bash
# Instruction counts for each side alone, under callgrind: one run, no warm-up.
#
#   compare/typify/profile.sh [N]        (default N = 1000; some 5-10 min a side at N = 1000)
#
# cosmap renders on several threads, and callgrind's --toggle-collect state is per thread
# (threads it did not toggle would not be counted), so the timed calls are cut out with
# dumps instead: callgrind writes a part when each timed function starts and ends, and the
# part that ends with "--dump-after=<function>" holds every thread's cost during that call.
#
#   /tmp/cg.cosmap.out.2   cosmap_rust (cosmap_codegen::render_rust)
#   /tmp/cg.typify.out.2   typify_tokens (parse + TypeSpace + to_stream)
#   /tmp/cg.typify.out.3   pretty (syn::parse2 + prettyplease::unparse; it starts right after
#                          typify_tokens ends, so no dump is needed before it)
set -euo pipefail
n="${1:-1000}"
here="$(cd "$(dirname "$0")" && pwd)"
CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}" cargo build --release --manifest-path "$here/Cargo.toml"
bin="$here/target/release/typify-vs-cosmap"
rm -f /tmp/cg.cosmap.out* /tmp/cg.typify.out*

valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.cosmap.out \
  --dump-before='typify_vs_cosmap::cosmap_rust' --dump-after='typify_vs_cosmap::cosmap_rust' \
  "$bin" --aggregates "$n" --only cosmap --runs 1 --warmup 0
valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.typify.out \
  --dump-before='typify_vs_cosmap::typify_tokens' --dump-after='typify_vs_cosmap::typify_tokens' \
  --dump-after='typify_vs_cosmap::pretty' \
  "$bin" --aggregates "$n" --only typify --runs 1 --warmup 0

# Shorter paths: the cargo registry and the toolchain's source prefix.
shorten() { sed -E 's#/root/.cargo/registry/src/[^/]+/##g; s#/rustc/[0-9a-f]+/##g; s# \[[^]]*typify-vs-cosmap\]##g'; }
for f in $(grep -l '^desc: Trigger: --dump-after' /tmp/cg.cosmap.out.* /tmp/cg.typify.out.*); do
  echo "== $f: $(grep '^desc: Trigger' "$f")"
  echo "   instructions: $(grep '^totals:' "$f" | cut -d' ' -f2)"
  callgrind_annotate --inclusive=yes --threshold=100 "$f" 2>/dev/null | shorten | sed -n '24,64p' | cut -c1-200
done
