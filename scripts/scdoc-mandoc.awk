# scdoc's roff for mandoc -T html: scdoc writes a paragraph macro (.P)
# around every heading and at the end of every indented block, where
# mandoc skips it with a warning. Those after or before a heading, or
# before another .P, are dropped; one that ends a block moves after its
# .RE, where it starts the next paragraph as groff reads it.
{ line[n++] = $0 }
END {
	do {
		changed = 0
		for (i = 0; i < n - 1; i++)
			if (line[i] == ".P" && line[i + 1] == ".RE") {
				line[i] = ".RE"; line[i + 1] = ".P"; changed = 1
			}
	} while (changed)
	for (i = 0; i < n; i++) {
		if (line[i] == ".P" && (line[i - 1] ~ /^\.S[HS]( |$)/ ||
		    line[i + 1] ~ /^\.(S[HS]|P)( |$)/ || i == n - 1))
			continue
		print line[i]
	}
}
