/* padpack compare-versions: dpkg --compare-versions, and a batch mode. */
#include <stdio.h>
#include <string.h>

#include "../lib/strbuf.h"
#include "../lib/version.h"
#include "cmds.h"

static const char usage[] =
	"usage: padpack compare-versions A OP B\n"
	"       padpack compare-versions --batch < PAIRS\n\n"
	"Compares two Debian versions as deb-version(7) defines it. OP is one\n"
	"of lt le eq ne ge gt, or << <= = >= >>. Exits 0 when the relation\n"
	"holds, 1 when it does not, 3 when a version is invalid.\n"
	"With --batch, reads 'A OP B' lines and prints 'true' or 'false' for\n"
	"each.\n";

static int relation(const char *a, const char *op, const char *b, int *holds,
		    struct pp_err *err)
{
	struct pp_version va, vb;
	enum pp_relop rop;
	int ne = !strcmp(op, "ne"), cmp;

	if (!ne && (pp_relop_parse(op, &rop) < 0 || !strcmp(op, "<") ||
		    !strcmp(op, ">")))
		return pp_usage_error(err, "unknown relation '%s'; use lt le eq "
				      "ne ge gt or << <= = >= >>", op);
	if (pp_version_parse(&va, a, err) < 0)
		return pp_err_prefix(err, "version '%s': ", a);
	if (pp_version_parse(&vb, b, err) < 0) {
		pp_version_release(&va);
		return pp_err_prefix(err, "version '%s': ", b);
	}
	cmp = pp_version_cmp(&va, &vb);
	*holds = ne ? cmp != 0 : pp_relop_holds(cmp, rop);
	pp_version_release(&va);
	pp_version_release(&vb);
	return 0;
}

static int batch(struct pp_err *err)
{
	char line[4096], a[1024], op[8], b[1024];
	unsigned no = 0;
	int holds;

	while (fgets(line, sizeof(line), stdin)) {
		no++;
		if (sscanf(line, "%1023s %7s %1023s", a, op, b) != 3)
			return pp_err_set(err, PP_EXIT_INPUT, "<stdin>:%u: expected "
					  "'A OP B'", no);
		if (relation(a, op, b, &holds, err) < 0)
			return pp_err_prefix(err, "<stdin>:%u: ", no);
		puts(holds ? "true" : "false");
	}
	return 0;
}

static int run(int argc, char **argv, struct pp_err *err)
{
	int holds;

	if (argc == 2 && !strcmp(argv[1], "--batch"))
		return batch(err);
	if (argc != 4)
		return pp_usage_error(err, "expected A OP B");
	if (relation(argv[1], argv[2], argv[3], &holds, err) < 0)
		return -1;
	if (!holds)
		return pp_err_set(err, PP_EXIT_FAIL, "%s", "");
	return 0;
}

const struct pp_cmd cmd_compare_versions = {
	"compare-versions", run, "compare two Debian versions (dpkg "
	"--compare-versions)", usage,
};
