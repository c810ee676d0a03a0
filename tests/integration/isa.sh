#!/bin/bash
# padpack isa on objects compiled here with and without -mavx2, on an
# archive, on bad input, and on the system's libc.so.6 (AVX2 and AVX-512
# string functions behind ifuncs).
source "$(dirname "$0")/../lib.sh"

cat > "$WORK/loop.c" <<'EOF'
void saxpy(float *restrict y, const float *restrict x, float a, int n)
{ for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i]; }
EOF
cat > "$WORK/other.c" <<'EOF'
int sum(const int *v, int n) { int s = 0; for (int i = 0; i < n; i++) s += v[i]; return s; }
EOF
gcc -c -O3 -mavx2 -mfma -o "$WORK/fast.o" "$WORK/loop.c"
gcc -c -O3 -o "$WORK/plain.o" "$WORK/loop.c"
gcc -c -O3 -o "$WORK/other.o" "$WORK/other.c"

out=$("$PADPACK" isa "$WORK/fast.o" "$WORK/plain.o" 2>&1)
check "the -mavx2 -mfma object needs x86-64-v3" \
	grep -q "fast.o: x86-64-v3 (" <<< "$out"
check "its AVX2 and FMA lines name saxpy" bash -c \
	'grep -Eq "^  AVX2 +x86-64-v3 +[0-9]+  saxpy\+0x[0-9a-f]+$" <<< "$1" &&
	 grep -Eq "^  FMA +x86-64-v3 +[0-9]+  saxpy\+0x[0-9a-f]+$" <<< "$1"' _ "$out"
check "the plain object needs only the baseline, with no AVX line" bash -c \
	'grep -q "plain.o: x86-64 (" <<< "$1" &&
	 ! sed -n "/plain.o:/,\$p" <<< "$1" | grep -q AVX' _ "$out"

# The offset printed is where objdump shows an AVX2 instruction.
off=$(sed -n 's/^  AVX2 .*saxpy+0x\([0-9a-f]*\)$/\1/p' <<< "$out" | head -n 1)
start=$(nm "$WORK/fast.o" | awk '$3 == "saxpy" { print $1 }')
addr=$(printf '%x' $((0x$start + 0x${off:-0})))
insn=$(objdump -d --no-show-raw-insn --start-address=0x$addr \
	--stop-address=$((0x$addr + 16)) "$WORK/fast.o" |
	awk -v a="$addr:" '$1 == a { print $2; exit }')
if [[ -n $off && $insn == v* ]]; then
	ok "saxpy+0x$off is a VEX instruction in objdump ($insn)"
else
	not_ok "saxpy+0x$off is a VEX instruction in objdump" "objdump: '$insn'"
fi

# A no-AVX variant in which one file was built with -mavx2 fails, naming
# that file, the extension, the symbol and the offset.
check_fails "--max x86-64-v2 fails on the -mavx2 object, naming it" 1 \
	"padpack isa: .*/fast\.o: (AVX2|FMA|AVX) instruction at saxpy\+0x[0-9a-f]+ \(address 0x[0-9a-f]+\) exceeds x86-64-v2" \
	"$PADPACK" isa --max x86-64-v2 "$WORK/plain.o" "$WORK/other.o" "$WORK/fast.o"
check "--max x86-64-v2 passes the files built without it" \
	"$PADPACK" isa --max x86-64-v2 "$WORK/plain.o" "$WORK/other.o"
check "--max x86-64-v3 passes the -mavx2 object" \
	"$PADPACK" isa --max x86-64-v3 "$WORK/fast.o"
check_fails "x86-64-v2+AVX (Paddle's -mavx build) still refuses AVX2" 1 \
	"(AVX2|FMA) instruction at saxpy.*exceeds x86-64-v2\+AVX" \
	"$PADPACK" isa --max x86-64-v2+AVX "$WORK/fast.o"
check_fails "--exempt takes saxpy out of the verdict" 0 \
	"^  AVX2 .*saxpy\+0x[0-9a-f]+  \(exempt: glob\)$" \
	"$PADPACK" isa --max x86-64-v2 --exempt 'sax*' "$WORK/fast.o"
check_fails "--list-exempt: a line per exempt function, with why and the extensions its code needs" 0 \
	"^  exempt saxpy \(glob, [0-9]+ instructions\): AVX, AVX2, FMA$" \
	"$PADPACK" isa --exempt 'sax*' --list-exempt "$WORK/fast.o"
check_fails "--list-exempt: no exempt function, no line" 0 '^none$' \
	bash -c "'$PADPACK' isa --list-exempt '$WORK/fast.o' | grep -c '^  exempt ' | sed 's/^0\$/none/'"
check "--json: exempt_functions names saxpy with its extensions" bash -c "
	'$PADPACK' isa --json --exempt 'sax*' '$WORK/fast.o' | python3 -c '
import json, sys
f = json.load(sys.stdin)[0][\"exempt_functions\"]
assert [x[\"name\"] for x in f] == [\"saxpy\"], f
assert f[0][\"exempt\"] == \"glob\" and \"AVX2\" in f[0][\"needs\"] and f[0][\"instructions\"] > 0, f
'"
check_fails "an unknown level is a usage error" 2 "'x86-64-v9' is not an ISA level" \
	"$PADPACK" isa --max x86-64-v9 "$WORK/fast.o"

# JSON: one object per file, with the violation.
"$PADPACK" isa --json --max x86-64-v2 "$WORK/fast.o" "$WORK/plain.o" \
	> "$WORK/out.json" 2> "$WORK/json.err"
echo $? > "$WORK/json.rc"
check "--json exits 1 on a violation and is valid JSON" python3 - "$WORK" <<'EOF'
import json, sys
d = sys.argv[1]
assert open(d + "/json.rc").read().strip() == "1"
files = json.load(open(d + "/out.json"))
assert [f["file"].rsplit("/", 1)[1] for f in files] == ["fast.o", "plain.o"]
fast, plain = files
assert fast["level"] == "x86-64-v3" and plain["level"] == "x86-64"
assert fast["violation"].endswith(open(d + "/json.err").read().split(": ", 2)[2].strip())
assert "exceeds x86-64-v2" in fast["violation"] and plain["violation"] is None
avx2 = [e for e in fast["extensions"] if e["name"] == "AVX2"][0]
assert avx2["symbol"] == "saxpy" and avx2["section"] == ".text"
assert avx2["count"] > 0 and avx2["exempt"] is None and avx2["member"] is None
EOF

check_json "--json lists the extension names of the -mavx2 -mfma object" \
	'len(d) == 1 and d[0]["needs"] == "x86-64-v3" and {"AVX", "AVX2", "FMA"} <= {e["name"] for e in d[0]["extensions"]} and all(e["symbol"] == "saxpy" for e in d[0]["extensions"] if e["name"] in ("AVX2", "FMA"))' \
	"$PADPACK" isa --json "$WORK/fast.o"
cp "$WORK/plain.o" "$WORK/$(printf 'caf\xe9')-latin1.o"
check_json "--json: a file name that is not UTF-8 shows its bytes as \\xNN" \
	'd[0]["file"].endswith("/caf\\xe9-latin1.o") and d[0]["level"] == "x86-64"' \
	"$PADPACK" isa --json "$WORK/$(printf 'caf\xe9')-latin1.o"

# An archive is scanned member by member.
(cd "$WORK" && ar rcs libmix.a plain.o other.o fast.o)
check_fails "a .a names the member that needs AVX2" 1 \
	"libmix\.a: .* instruction at fast\.o:saxpy\+0x" \
	"$PADPACK" isa --max x86-64-v2 "$WORK/libmix.a"
check "the .a scan counts its three objects" bash -c \
	'"$1" isa "$2" | grep -q "in 3 objects"' _ "$PADPACK" "$WORK/libmix.a"

# Bad input.
printf 'not an ELF file\n' > "$WORK/notes.txt"
check_fails "a text file is refused (exit 3)" 3 "notes.txt: not an ELF file or an ar archive" \
	"$PADPACK" isa "$WORK/notes.txt"
head -c 600 "$WORK/fast.o" > "$WORK/cut.o"
check_fails "a truncated ELF file is refused (exit 3)" 3 "cut.o: truncated or malformed ELF file" \
	"$PADPACK" isa "$WORK/cut.o"
check_fails "a missing file is an I/O error (exit 4)" 4 "nothing.o: No such file" \
	"$PADPACK" isa "$WORK/nothing.o"
check_fails "no file is a usage error" 2 "expected at least one FILE" "$PADPACK" isa

# libc.so.6: its string functions come in SSE2, AVX2 and EVEX (AVX-512)
# variants chosen by ifunc resolvers, so a strict scan says x86-64-v4.
# --ifunc alone exempts almost nothing: __libc_ifunc_impl_list (exported,
# GLIBC_PRIVATE) hands out every variant's address, so they are
# reachable without a resolver. Naming it as a dispatcher leaves the
# lock-elision RTM code (cpuid-guarded, not an ifunc) and pkey_set's
# RDPKRU, allowed or exempted explicitly.
libc=$(gcc -print-file-name=libc.so.6)
[ -f "$libc" ] || libc=/lib/x86_64-linux-gnu/libc.so.6
t0=$(date +%s%N)
check_fails "libc.so.6 exceeds x86-64-v2 when nothing is exempt" 1 \
	"libc\.so\.6: AVX-512[A-Z]+ instruction at [^ ]+\+0x[0-9a-f]+ .*exceeds x86-64-v2" \
	"$PADPACK" isa --max x86-64-v2 "$libc"
t1=$(date +%s%N)
echo "# libc.so.6 ($(stat -L -c %s "$libc") bytes) scanned in $(( (t1 - t0) / 1000000 )) ms"
check_fails "libc.so.6 with its dispatch exempt is within x86-64-v2+RTM" 0 \
	"^  AVX-512F +x86-64-v4 +[0-9]+  [^ ]+  \(exempt: ifunc\)$" \
	"$PADPACK" isa --max x86-64-v2+RTM --dispatcher __libc_ifunc_impl_list \
	--exempt 'pkey_*' "$libc"
