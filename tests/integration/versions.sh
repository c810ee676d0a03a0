#!/bin/bash
# padpack compare-versions agrees with dpkg --compare-versions on generated
# pairs (epochs, tildes, revisions, near-equal versions) and edge cases.
source "$(dirname "$0")/../lib.sh"

pairs=$WORK/pairs
python3 "$TOP/tests/tools/version-pairs.py" 1200 > "$pairs"
cat >> "$pairs" <<'PAIRS'
1.0~rc1 1.0
1.0~~ 1.0~
1.0 1.0+b1
1.0a 1.0.1
2.0a 2.0+
1.0-1~bpo1 1.0-1
1.0-9 1.0-10
1:0.1 2.0
1.01 1.1
1.0 1.0-0
0:1.0 1.0
1:2:3-4 1:2:3-5
1.0-a-b 1.0-a
1~ 1~~
0 00
9 10
1.2.3-0ubuntu1 1.2.3-0ubuntu1.1
PAIRS
n=$(wc -l < "$pairs")

# dpkg's answer: lt, eq or gt for each pair.
while read -r a b; do
	if dpkg --compare-versions "$a" lt "$b"; then echo lt
	elif dpkg --compare-versions "$a" eq "$b"; then echo eq
	else echo gt; fi
done < "$pairs" > "$WORK/dpkg"

# padpack's answer, from one batch run per relation.
sed 's/ / lt /' "$pairs" | "$PADPACK" compare-versions --batch > "$WORK/lt"
sed 's/ / eq /' "$pairs" | "$PADPACK" compare-versions --batch > "$WORK/eq"
paste -d' ' "$WORK/lt" "$WORK/eq" | while read -r lt eq; do
	if [ "$lt" = true ]; then echo lt; elif [ "$eq" = true ]; then echo eq; else echo gt; fi
done > "$WORK/padpack"

if cmp -s "$WORK/dpkg" "$WORK/padpack"; then
	ok "$n pairs ordered as dpkg --compare-versions orders them"
else
	not_ok "$n pairs ordered as dpkg --compare-versions orders them" \
		"$(paste -d' ' "$pairs" "$WORK/dpkg" "$WORK/padpack" | awk '$3 != $4' | head -n 10)"
fi
check "the pairs cover all three outcomes" bash -c \
	"grep -qx lt '$WORK/dpkg' && grep -qx eq '$WORK/dpkg' && grep -qx gt '$WORK/dpkg'"

# The command-line form and its exit codes, as dpkg's.
check "1.0~rc1 << 1.0 holds (exit 0)" "$PADPACK" compare-versions 1.0~rc1 '<<' 1.0
check_fails "1.0 gt 1.0 does not hold (exit 1)" 1 "" "$PADPACK" compare-versions 1.0 gt 1.0
check "1.0 ne 1.1 holds" "$PADPACK" compare-versions 1.0 ne 1.1
check_fails "an invalid version is an error" 3 "version 'a:1': epoch in version is not number" \
	"$PADPACK" compare-versions a:1 lt 1
check_fails "an unknown relation is a usage error" 2 "unknown relation '<'" \
	"$PADPACK" compare-versions 1 '<' 2
