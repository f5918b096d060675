# Shared by scripts/bench.sh and scripts/bench-verify-diff.sh: fields of
# /usr/bin/time -v's report in $logs/NAME.time ($logs set by the caller).
wall_seconds() {
  sed -n 's/^[[:space:]]*Elapsed (wall clock) time.*): //p' "$logs/$1.time" \
    | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }'
}
rss_mb() {
  sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$logs/$1.time" \
    | awk '{ printf "%.1f", $1 / 1024 }'
}
