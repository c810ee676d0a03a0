#!/bin/bash
# padpack build's machinery on a project that builds in a second
# (tests/data/tiny, spec tests/data/tiny.cfg): variants in parallel, logs,
# skipped variants, failures and their report, incremental runs, the
# output modes, and container builds (through tests/data/fake-engine).
source "$(dirname "$0")/../lib.sh"

SPEC=$TOP/tests/data/tiny.cfg
B=$WORK/b
cd "$WORK" || exit 1

spec_with() { # NAME SED-EXPRESSION: an edited copy of the tiny spec
	sed -e "$2" -e "s|^source = \"tiny\";|source = \"$TOP/tests/data/tiny\";|" \
		"$SPEC" >"$WORK/$1.cfg"
	echo "$WORK/$1.cfg"
}

# matches NAME PATTERN TEXT: passes when TEXT, its lines joined by spaces,
# matches the grep -E PATTERN.
matches() {
	if printf '%s' "$3" | tr '\n' ' ' | grep -Eq -- "$2"; then ok "$1"; else
		not_ok "$1" "wanted pattern: $2" "$(printf '%s' "$3" | tail -n 20)"
	fi
}

out=$("$PADPACK" build -c "$SPEC" -B "$B" -j2 2>&1)
rc=$?
check "builds the variants it can (exit 0)" test "$rc" = 0
matches "a variant whose tool is missing is skipped, saying which" \
	'plain-npu +skipped .*needs npucc \(the NPU toolkit\), which is not installed here: not in PATH nor in /nonexistent/npu/bin' \
	"$out"
check_fails "each variant gets its settings, cflags and name" 0 \
	'^tiny-salty-cpu flag=salty salt=none$' "$B/salty-cpu/stage/usr/bin/tiny"
check_fails "the other value's settings stay out" 0 '^tiny-plain-cpu flag=none' \
	"$B/plain-cpu/stage/usr/bin/tiny"
check "the environment of a value reaches its steps" \
	grep -q '^==> padpack: test: cd .* && env TINY_SALT=salty ' "$B/salty-cpu/build.log"
check "the log holds every step's command and output" bash -c "
	grep -q '^==> padpack: configure: env .* cmake -S $TOP/tests/data/tiny ' '$B/plain-cpu/build.log' &&
	grep -q '100% tests passed' '$B/plain-cpu/build.log' &&
	grep -q '^==> padpack: done in ' '$B/plain-cpu/build.log'"
matches "two variants at a time with -j2" 'up to 2 at a time, 1 compile job each' \
	"$out"
check "test_args, with placeholders, reach ctest" \
	grep -q '^==> padpack: test: .* ctest --output-on-failure --parallel 1$' \
	"$B/plain-cpu/build.log"
check "install goes to the stage with DESTDIR" test -x "$B/plain-cpu/stage/usr/bin/tiny"
check "the log shows the compiler command with the variant's flags" \
	grep -qE '(^|/)cc .*-O1 -DTINY_SALTY=1 .* -c [^ ]*/tiny\.c( |$)' \
	"$B/salty-cpu/build.log"

check_fails "--require-all makes a missing tool an error" 5 \
	'variant plain-npu needs npucc \(the NPU toolkit\), which is not installed here: not in PATH nor in /nonexistent/npu/bin; install it or leave out --require-all' \
	"$PADPACK" build -c "$SPEC" -B "$B" --require-all

mkdir -p "$WORK/bin" && printf '#!/bin/sh\n' >"$WORK/bin/npucc" && chmod +x "$WORK/bin/npucc"
check_fails "with the tool in PATH the variant builds, @npucc@ its path" 0 \
	"salty-npu +done" env PATH="$WORK/bin:$PATH" "$PADPACK" build -c "$SPEC" \
	-B "$B" --variant '*-npu' --require-all
check "the tool's path reached CMake" grep -q "\-DTINY_TOOL=$WORK/bin/npucc" \
	"$B/salty-npu/build.log"

# Incremental: nothing changed, nothing configured or compiled again.
out=$("$PADPACK" build -c "$SPEC" -B "$B" --variant '*-cpu' 2>&1)
check "a second run configures nothing" bash -c "
	grep -q 'configure (up to date, skipped)' '$B/plain-cpu/build.log' &&
	! grep -qE ' -c [^ ]+\.c( |\$)' '$B/plain-cpu/build.log'"
touch "$TOP/tests/data/tiny/tiny.c"
"$PADPACK" build -q -c "$SPEC" -B "$B" --variant plain-cpu
check "a changed source is compiled again" grep -qE ' -c [^ ]*/tiny\.c( |$)' \
	"$B/plain-cpu/build.log"

# A changed spec configures from no cache: a removed option leaves nothing.
f=$(spec_with tool 's|"-DCMAKE_INSTALL_PREFIX=/usr",|& "-DTINY_TOOL=/bin/true",|')
"$PADPACK" build -q -c "$f" -B "$B" --variant plain-cpu
check "a changed spec configures again" bash -c "
	! grep -q 'configure (up to date' '$B/plain-cpu/build.log' &&
	grep -q '^TINY_TOOL:FILEPATH=/bin/true' '$B/plain-cpu/obj/CMakeCache.txt'"
"$PADPACK" build -q -c "$SPEC" -B "$B" --variant plain-cpu
check "an option taken out of the spec is out of the cache" bash -c "
	! grep -q '^TINY_TOOL:FILEPATH=/bin/true' '$B/plain-cpu/obj/CMakeCache.txt'"
touch "$B/plain-cpu/stage/stale-file"
"$PADPACK" build -q -c "$SPEC" -B "$B" --variant plain-cpu
check "the stage is installed afresh each run" test ! -e "$B/plain-cpu/stage/stale-file"

# Failures: the variant, the step, the end of its log, how to reproduce.
f=$(spec_with broken 's|{ name = "salty"; suffix = "salty";|& cmake = [ "-DTINY_BREAK_CONFIGURE=ON" ];|')
out=$("$PADPACK" build -c "$f" -B "$WORK/f" --variant '*-cpu' 2>&1)
rc=$?
check "a failing configure: exit 5" test "$rc" = 5
matches "... names variant and step" \
	'padpack build: variant salty-cpu: configure failed \(exit status 1\) after' "$out"
matches "... shows the end of its log" \
	"last lines of ($WORK/)?f/salty-cpu/build.log: .*  \| .*tiny: configure broken on purpose" \
	"$out"
matches "... says how to reproduce" \
	"to reproduce: +env TINY_SALT=salty 'CFLAGS=-ffile-prefix-map=[^ ]*=. -ffile-prefix-map=[^ ]*=./obj-salty-cpu -O1 -DTINY_SALTY=1' .*cmake -S $TOP/tests/data/tiny -B $WORK/f/salty-cpu/obj .*-DTINY_BREAK_CONFIGURE=ON" \
	"$out"
matches "... and the others finish" 'plain-cpu +done' "$out"
matches "... the exit says what failed" \
	'padpack build: 1 of 2 variants failed: salty-cpu$' "$out"

f=$(spec_with badtest 's|env = { TINY_SALT = "salty"; };|env = { TINY_SALT = "bad"; };|')
out=$("$PADPACK" build -c "$f" -B "$WORK/t" --variant salty-cpu 2>&1)
matches "a failing test: its output and a ctest command to rerun it" \
	"salty-cpu: test failed \(exit status 8\).*the salt is bad.*to reproduce: +cd $WORK/t/salty-cpu/obj && env TINY_SALT=bad .*ctest --output-on-failure" \
	"$out"
check "--no-test skips the test step" "$PADPACK" build -q -c "$f" -B "$WORK/t" \
	--variant salty-cpu --no-test

# Interrupted (SIGTERM): the running steps are stopped, whole, and said so.
f=$(spec_with slow 's|env = { TINY_SALT = "salty"; };|env = { TINY_SALT = "slow"; };|')
"$PADPACK" build -c "$f" -B "$WORK/s" --variant salty-cpu >"$WORK/slow.out" 2>&1 &
pid=$!
for _ in $(seq 150); do
	grep -q '^==> padpack: test:' "$WORK/s/salty-cpu/build.log" 2>/dev/null && break
	sleep 0.2
done
sleep 1
t0=$SECONDS
kill -TERM "$pid"
wait "$pid"
rc=$?
check "SIGTERM: stops at once, not when the step ends ($((SECONDS - t0)) s)" \
	test $((SECONDS - t0)) -lt 20
matches "SIGTERM: exit 5, the step that was stopped" \
	"salty-cpu +failed .*test interrupted by Terminated.*padpack build: interrupted by Terminated" \
	"exit $rc $(cat "$WORK/slow.out")"
check "SIGTERM: nothing of the step is left running" bash -c \
	"sleep 0.5; ! pgrep -f '$WORK/s/salty-cpu/obj/[t]iny' >/dev/null"

# Output modes.
check_fails "--quiet prints nothing but skipped variants (stderr)" 0 \
	'^padpack build: plain-npu skipped: needs npucc' \
	bash -c "'$PADPACK' build -q -c '$SPEC' -B '$B' 2>&1 >'$WORK/quiet.out' &&
		test ! -s '$WORK/quiet.out'"
check "--json is one document with every variant" bash -c "
	'$PADPACK' build --json -c '$SPEC' -B '$B' | /usr/bin/python3 -c \"
import json, sys
d = json.load(sys.stdin)
v = {x['name']: x for x in d['variants']}
assert d['version'] == '1.2.3' and d['version_from'] == 'spec', d
assert v['plain-cpu']['status'] == 'done' and v['plain-cpu']['stage'], v
assert v['salty-npu']['status'] == 'skipped' and 'npucc' in v['salty-npu']['message'], v
assert v['plain-cpu']['steps'][0] == {'phase': 'configure', 'seconds': 0.0, 'up_to_date': True}, v\""
check_fails "plain lines when not a terminal" 0 '^plain-cpu +build ' \
	"$PADPACK" build -c "$SPEC" -B "$B"
if command -v script >/dev/null; then
	# four variants and the line of how many ended: 5 lines redrawn
	check_fails "a live line per variant on a terminal" 0 \
		$'\e\\[5A.*\r\e\\[K  plain-cpu +done ' \
		script -qec "'$PADPACK' build -c '$SPEC' -B '$B'" /dev/null
fi
check_fails "-j1: one variant at a time" 0 'up to 1 at a time, 1 compile job each' \
	"$PADPACK" build -c "$SPEC" -B "$B" -j1
check_fails "-j4 and two variants: two at a time, two jobs each" 0 \
	'up to 2 at a time, 2 compile jobs each' "$PADPACK" build -c "$SPEC" -B "$B" -j4
# -j3 and two variants (the others skipped): 3 / 2 leaves a job over,
# which the first variant gets; all build at once, every job used.
check_fails "-j3 and two variants: 2 and 1 compile jobs, none left unused" 0 \
	'up to 2 at a time, 2 or 1 compile jobs each' "$PADPACK" build -c "$SPEC" -B "$B" -j3
check "... the first variant's build and @jobs@ with 2, the second's with 1" bash -c "
	grep -q '^==> padpack: build: .* cmake --build $B/plain-cpu/obj --parallel 2 --verbose\$' '$B/plain-cpu/build.log' &&
	grep -q '^==> padpack: test: .* ctest --output-on-failure --parallel 2\$' '$B/plain-cpu/build.log' &&
	grep -q '^==> padpack: build: .* cmake --build $B/salty-cpu/obj --parallel 1 --verbose\$' '$B/salty-cpu/build.log'"

# In a container: every step through the engine, the source at image.mount.
export FAKE_ENGINE_LOG=$WORK/engine.log
check "--in-image builds through the container engine" "$PADPACK" build -q \
	-c "$SPEC" -B "$WORK/c" --in-image --engine "$TOP/tests/data/fake-engine" \
	--variant '*-cpu'
check_fails "... each step a 'run' of the spec's dev image with the source mounted" 0 \
	"^8$" bash -c "grep -c '^run --rm .* -v $TOP/tests/data/tiny:/src .* -e TINY_SALT=[a-z]* .*tiny:1\.2\.3-dev ' '$FAKE_ENGINE_LOG'"
check_fails "... cmake got the mounted source" 0 'cmake -S /src -B' cat "$FAKE_ENGINE_LOG"
check "... into its own build tree, installed to the stage" bash -c "
	test -f '$WORK/c/salty-cpu/obj-image/CMakeCache.txt' &&
	test -x '$WORK/c/salty-cpu/stage/usr/bin/tiny'"
check_fails "... tools are the image's: not skipped; device flags expanded, added" 0 \
	'run --rm .* --device=/dev/npu0 tiny:1\.2\.3-dev cmake .*-DTINY_TOOL=npucc' \
	"$PADPACK" build -n -c "$SPEC" -B "$WORK/c" --in-image --variant salty-npu
