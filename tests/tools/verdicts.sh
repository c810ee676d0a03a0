# Verdicts kept for the same inputs (sourced, bash): what a slow outside
# tool said of bytes that have not changed since (lintian on the same
# .debs, apt installing the same packages in the same clean root). The
# caller hashes every input into the key, so a stale verdict is never
# found, only missed. $PADPACK_VERDICTS (default /var/tmp/padpack-verdicts)
# holds one small file a verdict; PADPACK_VERDICTS=off keeps none, and
# every tool runs. Entries unused for 30 days are removed.
VERDICTS=${PADPACK_VERDICTS:-/var/tmp/padpack-verdicts}

verdict_key() { # reads the inputs on stdin; prints their key
	sha256sum | cut -c1-64
}

verdict_get() { # KIND KEY: prints the verdict; fails when none is kept
	local f=$VERDICTS/$1-$2
	[ "$VERDICTS" != off ] && [ -f "$f" ] || return 1
	touch "$f" && cat "$f"
}

verdict_put() { # KIND KEY: keeps stdin as the verdict
	local tmp
	[ "$VERDICTS" != off ] && mkdir -p "$VERDICTS" 2>/dev/null || { cat >/dev/null; return 0; }
	tmp=$(mktemp "$VERDICTS/.tmp.XXXXXX") || { cat >/dev/null; return 0; }
	cat >"$tmp" && mv -f "$tmp" "$VERDICTS/$1-$2"
	find "$VERDICTS" -maxdepth 1 -type f -mtime +30 -delete 2>/dev/null
	return 0
}
