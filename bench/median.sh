# Sourced by the benchmark scripts: `median` prints the median of the numbers on its input
# (separated by spaces or newlines; the mean of the middle two for an even count).
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
