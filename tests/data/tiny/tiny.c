/* Prints what it was built with; --check-salt fails when TINY_SALT says
 * "bad" and takes a minute when it says "slow", which lets a test make a
 * variant's test phase fail, or interrupt it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef TINY_SALTY /* from the salty value's cflags */
#define TINY_FLAG "salty"
#else
#define TINY_FLAG "none"
#endif

int main(int argc, char **argv)
{
	const char *salt = getenv("TINY_SALT");

	if (argc > 1 && !strcmp(argv[1], "--check-salt")) {
		if (salt && !strcmp(salt, "bad")) {
			fprintf(stderr, "tiny: the salt is bad\n");
			return 8;
		}
		if (salt && !strcmp(salt, "slow"))
			sleep(60);
		return 0;
	}
	printf("%s flag=%s salt=%s\n", TINY_NAME, TINY_FLAG,
	       salt ? salt : "none");
	return 0;
}
