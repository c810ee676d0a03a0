#!/usr/bin/python3
"""Scores padpack's split of each corpus project against Debian's own
packages of the same version (issue 13's four measures, and the names).

usage: fidelity.py [--details] [--thresholds] DIR
  DIR/NAME/debs holds padpack's .debs of project NAME, DIR/NAME/debian
  Debian's, DIR/NAME/version Debian's version (tests/corpus/corpus.sh
  writes them). A project without DIR/NAME/debs is reported as not split.
  DIR/NAME/fallback, when there, says why the minimal spec failed (the
  packages are then those of the recipe's fallback spec: the row is
  marked with a dagger and the project counts as failed for
  --thresholds).
  Prints a Markdown table, a row per project and the mean; --details adds
  what differs, project by project. With --thresholds, exits 1 when a
  project did not split or a mean is under issue 13's bar (role >= 98%,
  grouping >= 98%, relations 100%, control fields >= 95%); else 0.

The files compared. Each package's regular files and symbolic links
(not directories), by path, with two normalisations so that what is the
same file compares equal: a trailing ".gz" is dropped under
/usr/share/{man,info,doc} (dh_compress and padpack compress there), and
/usr/share/doc/PACKAGE/ is read as /usr/share/doc/*/ (each side names
the directory after its own package). Left out on both sides, because
only debhelper makes them from debian/: /usr/share/doc/*/copyright,
changelog.gz, changelog.Debian.gz, NEWS.Debian.gz, README.Debian,
/usr/share/doc/PACKAGE itself when a link (--link-doc), and
/usr/share/lintian/overrides/*; -dbgsym packages too (Debian's are in
another archive). "common files" are the paths in both sets; the other
files are counted (only Debian / only padpack) but in no measure: they
are what debhelper added from debian/ or what a recipe leaves out.

A package's role: "dev" when its name ends in -dev; else "runtime" when
it ships a shared library (a path matching lib*.so.N under a lib
directory); else "tools/doc". The same function for both sides.

(a) role: the share of common files whose padpack package has the role
    of their Debian package.
(b) grouping: the Rand index of the two partitions of the common files
    into packages: the share of pairs of common files that are either in
    one package on both sides or in different packages on both sides.
(c) relations: each Debian package maps to the padpack package that holds
    most of its common files (ties: the same name, then the first name);
    a Debian package without common files maps to nothing and is left
    out. A relation is (from, to, field, operator) with field one of
    Depends, Pre-Depends, Recommends, Suggests and operator =, >=, <=,
    <<, >> or none, between two packages of the same project (each
    alternative of an "a | b" counts). Debian's relations are read
    through the map; padpack's as they are (-dbgsym aside). The measure
    is |both| / |either|, 100% when neither side has one.
(d) control fields: for each mapped Debian package, six fields of its
    padpack package: Section (the area prefix dropped), Multi-Arch
    ("no" when absent), Architecture, shlibs (the file's lines, comments
    and udeb: lines dropped, sorted, the package's own name read as
    PACKAGE and a version's epoch dropped: a name that differs counts in
    names, and an epoch is Debian's history, not the project's; absent
    equals absent), triggers
    (likewise), and external Depends (the Depends and Pre-Depends
    entries naming a package of neither side's set, by name and
    operator: the versions follow the libraries of the machine that
    built, and Debian built many of these packages against an older
    libc6). The measure is the share of fields equal.
names: the share of mapped Debian packages whose padpack package has
    the same name.
Means are over the projects that split.
"""
import collections
import functools
import glob
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile

THRESHOLDS = {"role": 98.0, "grouping": 98.0, "relations": 100.0,
              "fields": 95.0}
REL_FIELDS = ["Depends", "Pre-Depends", "Recommends", "Suggests"]
DH_ONLY = re.compile(
    r"^/usr/share/doc/[^/]+/(copyright|changelog\.gz|changelog\.Debian\.gz|"
    r"NEWS\.Debian\.gz|README\.Debian)$|^/usr/share/lintian/overrides/")
SHLIB = re.compile(r"/lib/([^/]+/)*lib[^/]*\.so\.[0-9]")


def run(*args):
    return subprocess.run(args, check=True, capture_output=True).stdout


@functools.lru_cache(maxsize=None)
def parse_salt():
    """What a kept parse depends on besides the .deb's bytes: this file
    (the parser) and dpkg-deb's version (what it prints)."""
    with open(__file__, "rb") as f:
        me = hashlib.sha256(f.read()).hexdigest()
    return me + run("dpkg-deb", "--version").decode().split("\n", 1)[0]


def kept_parse_path(path):
    """Where the parse of the .deb at path is kept, in the verdicts'
    directory (tests/tools/verdicts.sh: $PADPACK_VERDICTS, off: none),
    keyed by the .deb's bytes and parse_salt(); None when none is kept."""
    d = os.environ.get("PADPACK_VERDICTS", "/var/tmp/padpack-verdicts")
    if d == "off":
        return None
    h = hashlib.sha256(parse_salt().encode())
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return os.path.join(d, "debparse-" + h.hexdigest())


class Package:
    """One .deb: its name, control fields, files and control files. The
    three dpkg-deb reads of a .deb are kept (kept_parse_path), since
    Debian's .debs and padpack's reproducible ones are read run after run."""

    def __init__(self, path):
        self.path = path
        kept = kept_parse_path(path)
        parsed = self._kept(kept)
        if parsed is None:
            parsed = {"fields": self._fields(), "files": self._files(),
                      "ctrl": self._control_files()}
            self._keep(kept, parsed)
        self.fields, self.files, self.ctrl = (
            parsed["fields"], parsed["files"], parsed["ctrl"])
        self.name = self.fields["Package"]

    @staticmethod
    def _kept(kept):
        if kept is None:
            return None
        try:
            with open(kept) as f:
                parsed = json.load(f)
            os.utime(kept)  # in use: verdicts.sh removes what is unused
            return parsed
        except (OSError, ValueError):
            return None

    @staticmethod
    def _keep(kept, parsed):
        if kept is None:
            return
        tmp = None
        try:
            os.makedirs(os.path.dirname(kept), exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(kept), prefix=".tmp.")
            with os.fdopen(fd, "w") as f:
                json.dump(parsed, f)
            os.replace(tmp, kept)
        except OSError:  # not kept: the next run reads the .deb again
            if tmp:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass

    def _fields(self):
        out, key = {}, None
        for line in run("dpkg-deb", "-f", self.path).decode().splitlines():
            if line[:1] in (" ", "\t") and key:
                out[key] += "\n" + line
            elif ":" in line:
                key, val = line.split(":", 1)
                out[key] = val.strip()
        return out

    def _files(self):
        out = []
        for line in run("dpkg-deb", "-c", self.path).decode().splitlines():
            name = line.split(None, 5)[5]
            if line.startswith("d"):
                continue
            if " -> " in name:
                name = name.split(" -> ", 1)[0]
            name = name[1:] if name.startswith("./") else name
            if line.startswith("l") and re.match(r"^/usr/share/doc/[^/]+$", name):
                continue
            if not DH_ONLY.search(name):
                out.append(name)
        return out

    def _control_files(self):
        tar = tarfile.open(fileobj=io.BytesIO(
            run("dpkg-deb", "--ctrl-tarfile", self.path)))
        out = {}
        for m in tar.getmembers():
            base = os.path.basename(m.name)
            if base in ("shlibs", "triggers") and m.isfile():
                out[base] = tar.extractfile(m).read().decode()
        return out

    def role(self):
        if self.name.endswith("-dev"):
            return "dev"
        if any(SHLIB.search(f) for f in self.files):
            return "runtime"
        return "tools/doc"


def file_key(path):
    if re.match(r"^/usr/share/(man|info|doc)/", path) and path.endswith(".gz"):
        path = path[:-3]
    return re.sub(r"^/usr/share/doc/[^/]+/", "/usr/share/doc/*/", path)


def load(d, skip_dbgsym):
    pkgs = {}
    for f in sorted(glob.glob(os.path.join(d, "*.deb"))):
        p = Package(f)
        if skip_dbgsym and p.name.endswith("-dbgsym"):
            continue
        pkgs[p.name] = p
    return pkgs


def owners(pkgs):
    """file key -> package name"""
    out = {}
    for p in pkgs.values():
        for f in p.files:
            out[file_key(f)] = p.name
    return out


def pairs(n):
    return n * (n - 1) // 2


def rand_index(common, deb_of, ours_of):
    n = len(common)
    if n < 2:
        return 1.0
    both = collections.Counter((deb_of[f], ours_of[f]) for f in common)
    a = collections.Counter(deb_of[f] for f in common)
    b = collections.Counter(ours_of[f] for f in common)
    together_both = sum(pairs(c) for c in both.values())
    disagree = (sum(pairs(c) for c in a.values()) +
                sum(pairs(c) for c in b.values()) - 2 * together_both)
    return 1.0 - disagree / pairs(n)


def relations(pkg):
    """(field, name, operator, version) of each relation entry"""
    out = []
    for field in REL_FIELDS:
        for entry in re.split(r"[,|]", pkg.fields.get(field, "")):
            m = re.match(r"\s*([^\s(:]+)(?::\S+)?\s*(?:\(\s*([<>=]+)\s*([^)\s]+)\s*\))?",
                          entry)
            if m and m.group(1):
                out.append((field, m.group(1), m.group(2) or "none",
                            m.group(3) or ""))
    return out


def lines(text):
    if text is None:
        return None
    return sorted(" ".join(l.split()) for l in text.splitlines()
                  if l.strip() and not l.startswith("#") and
                  not l.startswith("udeb:"))


def shlibs_lines(pkg):
    """The shlibs lines with the package's own name read as PACKAGE (a
    name that differs is counted once, by the names measure) and the
    dependency's version without its epoch (Debian's history, which the
    upstream project split does not have: libjpeg62-turbo's 1:)."""
    out = lines(pkg.ctrl.get("shlibs"))
    if out is None:
        return None
    return [re.sub(r"\(([<>=]+) [0-9]+:", r"(\1 ",
                   re.sub(r"^(\S+ \S+ )%s\b" % re.escape(pkg.name),
                          r"\1PACKAGE", l)) for l in out]


def external_depends(pkg, own):
    return sorted(set((n, op) for f, n, op, v in relations(pkg)
                      if f in ("Depends", "Pre-Depends") and n not in own))


def control_values(pkg, own):
    f = pkg.fields
    return {
        "Section": re.sub(r"^.*/", "", f.get("Section", "")),
        "Multi-Arch": f.get("Multi-Arch", "no"),
        "Architecture": f.get("Architecture", ""),
        "shlibs": shlibs_lines(pkg),
        "triggers": lines(pkg.ctrl.get("triggers")),
        "external Depends": external_depends(pkg, own),
    }


def score(deb, ours):
    """The measures of one project, and what differs."""
    deb_of, ours_of = owners(deb), owners(ours)
    common = sorted(set(deb_of) & set(ours_of))
    r = {"files": (len(common), len(set(deb_of) - set(ours_of)),
                   len(set(ours_of) - set(deb_of))),
         "packages": (len(deb), len(ours)), "notes": []}
    notes = r["notes"]
    for side, keys in (("Debian", set(deb_of) - set(ours_of)),
                       ("padpack", set(ours_of) - set(deb_of))):
        if keys:
            keys = sorted(keys)
            notes.append("only in %s's (no measure): %s%s" % (
                side, ", ".join(keys[:8]),
                " and %d more" % (len(keys) - 8) if len(keys) > 8 else ""))
    role_ok = 0
    moved = collections.Counter()
    for f in common:
        d, o = deb[deb_of[f]], ours[ours_of[f]]
        if d.role() == o.role():
            role_ok += 1
        if d.name != o.name:
            moved[(d.name, d.role(), o.name, o.role())] += 1
    for (dn, dr, on, orole), c in sorted(moved.items()):
        notes.append("%d file(s) of %s (%s) are in %s (%s)%s" % (
            c, dn, dr, on, orole, "" if dr == orole else ": ROLE DIFFERS"))
    r["role"] = role_ok / len(common) if common else 1.0
    r["grouping"] = rand_index(common, deb_of, ours_of)

    mapping = {}
    for name in deb:
        c = collections.Counter(ours_of[f] for f in common if deb_of[f] == name)
        if not c:
            notes.append("%s: no common file, left out of relations and fields" % name)
            continue
        best = max(c.values())
        cands = sorted(n for n in c if c[n] == best)
        mapping[name] = name if name in cands else cands[0]
    r["mapping"] = mapping
    r["names"] = (sum(1 for d, o in mapping.items() if d == o) / len(mapping)
                  if mapping else 1.0)
    for d, o in sorted(mapping.items()):
        if d != o:
            notes.append("package name: Debian %s, padpack %s" % (d, o))
    extra = sorted(set(ours) - set(mapping.values()))
    if extra:
        notes.append("padpack packages no Debian package maps to: %s" %
                     ", ".join(extra))

    rel_deb, rel_ours = set(), set()
    for name, p in deb.items():
        if name not in mapping:
            continue
        for field, to, op, _ in relations(p):
            if to in mapping:
                rel_deb.add((mapping[name], mapping[to], field, op))
    for name, p in ours.items():
        for field, to, op, _ in relations(p):
            if to in ours:
                rel_ours.add((name, to, field, op))
    either = rel_deb | rel_ours
    r["relations"] = len(rel_deb & rel_ours) / len(either) if either else 1.0
    for rel in sorted(rel_deb - rel_ours):
        notes.append("relation Debian has, padpack not: %s %s: %s (%s)" % (
            rel[0], rel[2], rel[1], rel[3]))
    for rel in sorted(rel_ours - rel_deb):
        notes.append("relation padpack has, Debian not: %s %s: %s (%s)" % (
            rel[0], rel[2], rel[1], rel[3]))

    own = set(deb) | set(ours)
    same = total = 0
    for name, o in sorted(mapping.items()):
        dv, ov = control_values(deb[name], own), control_values(ours[o], own)
        for k in dv:
            total += 1
            if dv[k] == ov[k]:
                same += 1
            else:
                notes.append("%s -> %s: %s: Debian %s, padpack %s" % (
                    name, o, k, show(dv[k]), show(ov[k])))
    r["fields"] = same / total if total else 1.0
    return r


def show(v):
    if v is None:
        return "(none)"
    if isinstance(v, list):
        return "; ".join(" ".join(x) if isinstance(x, tuple) else x
                         for x in v) or "(none)"
    return v or "(none)"


class RulePackage(Package):
    """A package of the 20-line rule split (see rule_split)."""

    def __init__(self, name, fields):
        self.path, self.name, self.fields = None, name, dict(fields)
        self.fields["Package"] = name
        self.files, self.ctrl = [], {}


DEV_PATH = re.compile(r"^/usr/include/|/pkgconfig/|/cmake/|^/usr/share/aclocal/|"
                      r"^/usr/share/man/man3/|\.so$|\.a$|^/usr/bin/[^/]*-config$")


def rule_split(ours, source):
    """issue 13's "20-line rule split" of the files padpack shipped: every
    shared library in one runtime package (named from the first SONAME),
    everything for building in one -dev (headers, .so links, .a, .pc,
    CMake and aclocal files, section-3 pages, *-config), the rest (the
    programs, their pages, documents, data) in one package named after
    the source. Its control: Debian's fixed fields per role, -dev
    Depends on the runtime (=), the programs on it (>=), the shlibs,
    triggers and external Depends padpack computed (dh_makeshlibs and
    dpkg-shlibdeps give those to any split)."""
    files = {"runtime": [], "dev": [], "tools": []}
    for p in ours.values():
        for f in p.files:
            kind = ("runtime" if SHLIB.search(f) else
                    "dev" if DEV_PATH.search(f) else "tools")
            files[kind].append((f, p))
    stem = re.sub(r"^lib", "", source)
    libs = sorted((not os.path.basename(f).startswith("lib%s." % stem), f)
                  for f, _ in files["runtime"])
    m = re.match(r"lib(.*)\.so\.([0-9]+)", os.path.basename(libs[0][1])) if libs else None
    lib = None
    if m:
        lib = "lib%s%s%s" % (m.group(1), "-" if m.group(1)[-1:].isdigit() else "",
                             m.group(2))
        lib = lib.lower().replace("_", "-")
    names = {"runtime": lib, "dev": "lib%s-dev" % stem, "tools": source}
    out = {}
    for kind, fl in files.items():
        if not fl:
            continue
        arch = "all" if kind == "tools" and not any(
            "/bin/" in f or "/lib/" in f for f, _ in fl) else "amd64"
        fields = {"Section": {"runtime": "libs", "dev": "libdevel"}.get(kind, "utils"),
                  "Architecture": arch,
                  "Multi-Arch": "foreign" if kind == "tools" else "same"}
        q = RulePackage(names[kind], fields)
        q.files = [f for f, _ in fl]
        srcs = {id(p): p for _, p in fl}.values()
        ext = sorted(set(e for p in srcs for e in re.split(r",\s*", p.fields.get("Depends", ""))
                         if e and not any(e.split()[0] == n for n in ours)))
        dep = []
        if lib and kind != "runtime":
            dep = ["%s (%s 0)" % (lib, "=" if kind == "dev" else ">=")]
        if kind != "dev":
            dep += ext
        if dep:
            q.fields["Depends"] = ", ".join(dep)
        if kind == "runtime":
            for key in ("shlibs", "triggers"):
                text = "".join(p.ctrl.get(key, "") for p in srcs)
                for p in srcs:
                    text = re.sub(r"\b%s\b" % re.escape(p.name), lib, text)
                if text:
                    q.ctrl[key] = "\n".join(sorted(set(text.splitlines())))
        out[q.name] = q
    return out


MEASURES = ["role", "grouping", "relations", "fields", "names"]
LABELS = ["files in a package of the same role", "pairs of files grouped as "
          "Debian groups them", "relations between the project's own packages",
          "control fields per role", "package names"]


def main():
    args = sys.argv[1:]
    details = "--details" in args
    thresholds = "--thresholds" in args
    args = [a for a in args if not a.startswith("--")]
    if len(args) != 1:
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    top = args[0]
    results, rules, failed = {}, {}, []
    for d in sorted(glob.glob(os.path.join(top, "*", "debian"))):
        name = os.path.basename(os.path.dirname(d))
        if not glob.glob(os.path.join(top, name, "debs", "*.deb")):
            failed.append(name)
            continue
        deb, ours = load(d, False), load(os.path.join(top, name, "debs"), True)
        results[name] = score(deb, ours)
        rules[name] = score(deb, rule_split(ours, name))
    print("| project | version | packages Debian / padpack | files both / "
          "only Debian / only padpack | role | grouping | relations | "
          "control fields | names |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    fallback = []
    for name, r in results.items():
        with open(os.path.join(top, name, "version")) as f:
            ver = f.read().strip()
        mark = ""
        if os.path.exists(os.path.join(top, name, "fallback")):
            fallback.append(name)
            mark = " \u2020"
        print("| %s%s | %s | %d / %d | %d / %d / %d | %s |" % (
            name, mark, ver, r["packages"][0], r["packages"][1], *r["files"],
            " | ".join("%.1f%%" % (100 * r[m]) for m in MEASURES)))
    for name in failed:
        print("| %s | | not split | | | | | | |" % name)
    mean = {m: 100 * sum(r[m] for r in results.values()) / len(results)
            if results else 0.0 for m in MEASURES}
    print("| **mean of %d** | | | | %s |" % (
        len(results), " | ".join("**%.1f%%**" % mean[m] for m in MEASURES)))
    rule_mean = {m: 100 * sum(r[m] for r in rules.values()) / len(rules)
                 if rules else 0.0 for m in MEASURES}
    print("\n| measure (mean of %d) | padpack | the 20-line rule split | "
          "Debian |\n|---|---:|---:|---:|" % len(results))
    for m, label in zip(MEASURES, LABELS):
        print("| %s | %.1f%% | %.1f%% | 100%% |" % (label, mean[m], rule_mean[m]))
    if fallback:
        print("\n\u2020 the minimal spec failed; scored: the split of the "
              "recipe's fallback spec (packages.title, a version padpack "
              "accepts)")
    if details:
        for name in fallback:
            with open(os.path.join(top, name, "fallback")) as f:
                results[name]["notes"].insert(
                    0, "the minimal spec failed: " + f.read().strip())
        for name, r in results.items():
            print("\n### %s\n" % name)
            for n in r["notes"]:
                print("- " + n)
            if not r["notes"]:
                print("- (as Debian)")
    if not thresholds:
        return 0
    short = ["%s %.1f%% < %g%%" % (m, mean[m], t)
             for m, t in THRESHOLDS.items() if mean[m] + 1e-9 < t]
    if fallback:
        short.insert(0, "not split with the minimal spec: " + ", ".join(fallback))
    if failed:
        short.insert(0, "not split: " + ", ".join(failed))
    if short:
        print("\nthresholds of issue 13 not met: " + "; ".join(short))
        return 1
    print("\nthresholds of issue 13 met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
