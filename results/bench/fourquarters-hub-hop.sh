#!/bin/sh
# hop against mc on Four Quarters' hub variant, on the 1,000 deals
# 1,000,000-1,000,999 (protocol v1 measures the default rules only, so this
# is a plain bench on the protocol's deals, each agent seeded with the deal
# number), in four runs of 250 deals: fourquarters-hub-hop-START.{json,md}.
# A run whose file exists is skipped; fourquarters-hub-hop.py adds them up.
set -eu
cd "$(dirname "$0")/../.."
bin=build/protocol/patience
mkdir -p build/protocol
go build -o "$bin" ./cmd/patience
out=results/bench
for start in 1000000 1000250 1000500 1000750; do
	f=$out/fourquarters-hub-hop-$start
	[ -e "$f.json" ] && continue
	echo "$(date -u +%FT%TZ) fourquarters:hub $start"
	nice -n 10 "$bin" bench --games fourquarters:hub --agents "mc,hop:worlds=6,nodes=3000,line=keep,tie=rollout" \
		--baseline mc --deals 250 --seed-start "$start" --workers 1 --json "$f.json" >"$f.md"
done
echo "$(date -u +%FT%TZ) done"
