#!/bin/sh
# The protocol v1 runs of docs/protocol.md: every agent of the results
# table on every game whose verdict table ships, one result file each,
# results/protocol-v1/GAME-AGENT.json. A file that exists is skipped, and
# an interrupted run goes on from its journal (FILE.journal.jsonl), so the
# script can be run again at any time: after a crash, or when another
# game's table lands (it builds the binary afresh, with the tables
# committed). The cheap agents of every game come first, then mc, mc with
# line=best (The Fifteen and Cromwell), then uct, then hop (the games with
# hidden cards).
#
#   sh results/protocol-v1/run.sh                 # every game
#   sh results/protocol-v1/run.sh cromwell ladder # some games
#
# One worker at nice 10 by default, as the machine is shared; WORKERS=2
# plays two games at once (the figures do not depend on it, the time per
# game does when the machine is busy):
#
#   WORKERS=2 sh results/protocol-v1/run.sh fourquarters limited
set -eu
cd "$(dirname "$0")/../.."
bin=build/protocol/patience
mkdir -p build/protocol
go build -o "$bin" ./cmd/patience
out=results/protocol-v1
workers=${WORKERS:-1}
games=${*:-"limited fourquarters cromwell royalparade fifteen ladder"}

# The solver agent at the budget its game's table was made with (and the
# solver's default table size, as the tables use), so that its wins are the
# table's won deals plus the heuristic's wins on the others.
solver() {
	case $1 in
	cromwell | fifteen) n=1000000 ;;
	limited) n=300000 ;;
	royalparade) n=200000 ;;
	fourquarters) n=100000 ;;
	ladder) n=50000 ;;
	esac
	echo "solver:nodes=$n,table-bits=22"
}

run() { # game, file name, agent
	f=$out/$1-$2.json
	[ -e "$f" ] && return 0
	[ -e "deals/tables/$1.parquet" ] || { echo "$1: no table yet, $2 left for later"; return 0; }
	echo "$(date -u +%FT%TZ) $1 $2: $3"
	nice -n 10 "$bin" bench --protocol v1 --games "$1" --agents "$3" --workers "$workers" --json "$f" >"$out/$1-$2.md" ||
		{ echo "$1 $2 failed (see $out/$1-$2.md)"; return 1; }
}

for g in $games; do
	run "$g" random random
	run "$g" heuristic heuristic
	[ -e "models/$g.safetensors" ] && run "$g" policy "policy:model=models/$g.safetensors"
	run "$g" solver "$(solver "$g")"
done
for g in $games; do run "$g" mc mc; done
# mc keeping its best line, in the games with no hidden cards (elsewhere a
# line found in one sampled world need not be legal in the game).
for g in $games; do
	case $g in
	cromwell | fifteen) run "$g" mcline "mc:rollouts=1,width=8,rollout-steps=2000,margin=0,line=best" ;;
	esac
done
for g in $games; do run "$g" uct uct; done
# hop, the fair agent that asks the solver which moves keep a win in worlds
# the player cannot tell apart, with the settings chosen on training deals
# (docs/agents.md#hop): on training deals about 2.4 s of one core a game
# in Limited, 1.3 s in Royal Parade, 4.4 s in Ladder, 1.1 s in Four
# Quarters' hub variant.
for g in $games; do
	case $g in
	limited) run "$g" hop "hop:worlds=8,nodes=10000,line=keep,tie=rollout" ;;
	royalparade) run "$g" hop "hop:worlds=6,nodes=5000,line=keep" ;;
	ladder) run "$g" hop "hop:worlds=4,nodes=2000,line=keep,tie=rollout,rollout-steps=20" ;;
	fourquarters) run "$g" hop "hop:worlds=6,nodes=3000,line=keep,tie=rollout" ;;
	esac
done
echo "$(date -u +%FT%TZ) done"
