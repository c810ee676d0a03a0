#!/bin/bash
# --json of info, field, contents and split: each prints one document
# that python3 -m json.tool reads, with the values dpkg-deb shows (and
# the package table split writes). verify, isa and repo have theirs in
# their own suites.
source "$(dirname "$0")/../lib.sh"
source "$TOP/tests/deb-fixtures.sh"
export SOURCE_DATE_EPOCH=1700000000

# json_vs_dpkg NAME DEB PY CMD...: python PY gets the document as d, the
# package as deb; it compares them with what dpkg-deb says (dpkg(deb,
# args...) returns dpkg-deb's output as text) and prints what differs.
json_vs_dpkg() {
	local name=$1 deb=$2 py=$3 out why; shift 3
	out=$("$@" 2>/dev/null)
	if ! printf '%s' "$out" | python3 -m json.tool >/dev/null 2>&1; then
		not_ok "$name" "not JSON: $*" "$(printf '%s' "$out" | head -c 400)"
		return
	fi
	why=$(printf '%s' "$out" | python3 -c '
import json, subprocess, sys
def dpkg(*args):
	return subprocess.run(["dpkg-deb", *args], capture_output=True,
			      check=True).stdout.decode("utf-8", "replace")
d = json.load(sys.stdin)
deb = sys.argv[2]
exec(sys.argv[1])' "$py" "$deb" 2>&1)
	if [ -z "$why" ]; then ok "$name"; else
		not_ok "$name" "command: $*" "$(printf '%s' "$why" | tail -n 8)"
	fi
}

# Every field of the control file, each as dpkg-deb --field FIELD shows it.
fields_py='
for k, v in d["fields"].items():
	want = dpkg("--field", deb, k)[:-1]
	if v != want: print(k, repr(v), "!=", repr(want))
want = [l.split(":")[0] for l in dpkg("--field", deb).splitlines() if l[:1] not in (" ", "")]
if list(d["fields"]) != want: print("fields", list(d["fields"]), "!=", want)'

# The lines dpkg-deb --info prints for the sizes and control files,
# rebuilt from the document; and its control fields as --field shows them.
info_py='
lines = [" new Debian package, version %s." % d["format"],
	 " size %d bytes: control archive=%d bytes." % (d["size"], d["control_archive_size"])]
for m in d["control_files"]:
	interp = "#!" + m["interpreter"] if m["interpreter"] else ""
	lines.append((" %7d bytes, %5d lines   %s  %-20s %s" % (m["size"], m["lines"],
		      "*" if m["executable"] else " ", m["name"], interp)).rstrip())
got = [l.rstrip() for l in dpkg("--info", deb).splitlines()][:len(lines)]
if got != lines: print("info", got, "!=", lines)
for k, v in d["control"].items():
	if v != dpkg("--field", deb, k)[:-1]: print("control", k, repr(v))'

# Each line of dpkg-deb --contents rebuilt from the entries (type, mode,
# owner, size, time, name, target); names with escapes are compared as
# dpkg-deb would escape a backslash.
contents_py='
import stat, time
types = {"directory": "d", "symlink": "l", "hardlink": "h", "file": "-",
	 "character-device": "c", "block-device": "b", "fifo": "p", "socket": "s"}
def perms(t, m):
	s = types[t]
	for i, c in enumerate("rwxrwxrwx"):
		s += c if m & (0o400 >> i) else "-"
	return s
want = []
for l in dpkg("--contents", deb).splitlines():
	f = l.split(None, 5)
	want.append((f[0], f[1], int(f[2]), f[3] + " " + f[4], f[5]))
got = []
for e in d["entries"]:
	m = int(e["mode"], 8)
	name = e["path"].replace("\\", "\\\\")
	if e["type"] == "symlink": name += " -> " + e["target"]
	if e["type"] == "hardlink": name += " link to " + e["target"]
	got.append((perms(e["type"], m), "%s/%s" % (e["user"], e["group"]), e["size"],
		    time.strftime("%Y-%m-%d %H:%M", time.gmtime(e["mtime"])), name))
if got != want:
	for g, w in zip(got, want):
		if g != w: print(g, "!=", w)
	print(len(got), "entries against", len(want))'

for f in full scripts links nonascii conffiles empty; do
	t=$WORK/t-$f deb=$WORK/$f.deb
	make_fixture "$f" "$t"
	dpkg-deb --root-owner-group -b "$t" "$deb" >/dev/null 2>&1
	json_vs_dpkg "$f: info --json, sizes and control files as dpkg-deb --info" \
		"$deb" "$info_py" "$PADPACK" info "$deb" --json
	json_vs_dpkg "$f: field --json, each field as dpkg-deb --field" \
		"$deb" "$fields_py" "$PADPACK" field --json "$deb"
	json_vs_dpkg "$f: contents --json, each entry as dpkg-deb --contents" \
		"$deb" "$contents_py" "$PADPACK" contents "$deb" --json
done

deb=$WORK/full.deb
check_json "field --json FIELD...: those named, null for one absent, dpkg's spelling" \
	'd["fields"] == {"Package": "fx-full", "Version": "1.2-3", "Nope": None} and d["file"].endswith("full.deb")' \
	"$PADPACK" field "$deb" package Version Nope --json
check_json "info --json NAME...: the control files' text, null for one absent" \
	'd["control_files"]["postinst"].startswith("#!/bin/sh") and d["control_files"]["nope"] is None' \
	"$PADPACK" info "$deb" postinst nope --json
check_fails "info --json NAME...: a missing control file still exits 1" 1 \
	'requested control file is missing' "$PADPACK" info "$deb" postinst nope --json

# A control file may hold NUL bytes (dpkg-deb --info NAME prints them):
# the JSON text keeps every byte, as \u0000, not the part before the NUL.
t=$WORK/t-nul
make_fixture full "$t"
printf 'a\0b\377c\n' > "$t/DEBIAN/blob"
dpkg-deb --root-owner-group -b "$t" "$WORK/nul.deb" >/dev/null 2>&1
check_json "info --json NAME: a control file with a NUL byte, every byte kept" \
	'd["control_files"]["blob"] == "a\x00b\\xffc\n"' \
	"$PADPACK" info "$WORK/nul.deb" blob --json
check_json "contents --json: a hard link's target, size 0; a symbolic link's target" \
	'any(e["type"] == "hardlink" and e["target"] and e["size"] == 0 for e in d["entries"]) and any(e["type"] == "symlink" and e["target"] == "libfx.so.1.0.0" for e in d["entries"])' \
	"$PADPACK" contents --json "$WORK/links.deb"
check_json "contents --json: UTF-8 names as they are" \
	'any(e["path"].endswith("/café.txt") for e in d["entries"])' \
	"$PADPACK" contents --json "$WORK/nonascii.deb"

# A name that is not UTF-8: still a document, the byte as \xNN.
t=$WORK/t-latin1
make_fixture empty "$t"
printf 'x\n' > "$t/caf$(printf '\351')"
dpkg-deb --root-owner-group -b "$t" "$WORK/latin1.deb" >/dev/null 2>&1
check_json "contents --json: a name that is not UTF-8 shows its byte as \\xNN" \
	'any(e["path"] == "./caf\\xe9" for e in d["entries"])' \
	"$PADPACK" contents "$WORK/latin1.deb" --json
check_fails "contents --json of a file that is no package: the usual error, exit 3" 3 \
	'not a Debian|ar' "$PADPACK" contents --json "$TOP/README.md"

# split --json: the package table of a small staged tree.
S=$WORK/stage
mkdir -p "$S/usr/bin" "$S/usr/share/doc/jsondemo"
printf 'int main(void) { return 0; }\n' > "$WORK/main.c"
if cc -g -O1 -o "$S/usr/bin/jsondemo" "$WORK/main.c"; then
	echo 'jsondemo does nothing.' > "$S/usr/share/doc/jsondemo/README"
	printf 'Copyright (c) 2024 Jane Upstream\n\nPermission is granted to use it.\n' \
		> "$S/usr/share/doc/jsondemo/COPYING"
	DEBFULLNAME="Jane Doe" DEBEMAIL=jane@example.org \
		"$PADPACK" split --stage "$S" --name jsondemo --version 1.0 \
		-o "$WORK/debs" --json > "$WORK/split.json" 2>"$WORK/split.err"
	check_json "split --json: one document naming every .deb written, with its size" \
		'd["name"] == "jsondemo" and d["version"] == "1.0-1" and sorted(p["deb"] for p in d["packages"]) == sorted(f for f in __import__("os").listdir(d["output"]) if f.endswith(".deb")) and all(p["size"] == __import__("os").path.getsize(p["path"]) for p in d["packages"])' \
		cat "$WORK/split.json"
	check_json "split --json: each package's role, architecture and Package field" \
		'all(p["role"] and p["architecture"] for p in d["packages"]) and all(__import__("subprocess").run(["dpkg-deb", "-f", p["path"], "Package"], capture_output=True, text=True).stdout.strip() == p["package"] for p in d["packages"])' \
		cat "$WORK/split.json"
	check_fails "split --json writes nothing else on stdout" 0 '^\{' head -c 1 "$WORK/split.json"
else
	not_ok "split --json: a program built with cc"
fi
check_fails "split: --json with --quiet is a usage error" 2 'not with --quiet' \
	"$PADPACK" split --stage "$S" --name jsondemo --version 1.0 --json -q
