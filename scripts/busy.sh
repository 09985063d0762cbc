#!/bin/bash
# The whole machine's CPU around a command (docs/performance.md, "The suite is CPU-bound"): wall seconds,
# busy and idle core-seconds from /proc/stat. It counts what per-process accounting misses (Chromium's
# renderer, GPU and zygote processes). Usage: scripts/busy.sh npm test
sample() { read -r _ u n s i w irq sirq st _ < /proc/stat; echo "$(date +%s.%N) $((u + n + s + irq + sirq + st)) $((i + w))"; }
before=$(sample)
"$@"
rc=$?
after=$(sample)
echo "$before $after $(getconf CLK_TCK) $rc" | awk '{ printf "wall=%.1f s busy=%.1f core-s idle=%.1f core-s rc=%d\n", $4 - $1, ($5 - $2) / $7, ($6 - $3) / $7, $8 }' >&2
exit $rc
