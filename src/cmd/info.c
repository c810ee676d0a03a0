/* padpack info: describe a package, like dpkg-deb --info. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../lib/deb.h"
#include "../lib/json-out.h"
#include "cmds.h"

static const char usage[] =
	"usage: padpack info X.deb [CONTROL-FILE...] [--json]\n\n"
	"Without CONTROL-FILE, prints the format version, the sizes, a line per\n"
	"control file (bytes, lines, '*' for executables, the interpreter) and\n"
	"the control file, as dpkg-deb --info does. With names, prints those\n"
	"control files (for example: padpack info x.deb postinst).\n\n"
	"Options:\n"
	"  --json   print one JSON object instead: file, format, size,\n"
	"           control_archive_size, control_files (name, size, lines,\n"
	"           executable, interpreter) and control (the fields as\n"
	"           'padpack field' shows them); with names, control_files\n"
	"           maps each name to its text (null when absent)\n";

static void describe(const struct pp_ctrl_member *m)
{
	char interp[256];
	int lines;

	pp_ctrl_member_shape(m, &lines, interp);
	printf(" %7zu bytes, %5d lines   %c  %-20.127s %.127s\n", m->data.len,
	       lines, (m->mode & S_IXUSR) ? '*' : ' ', m->name, interp);
}

static void print_indented(const struct strbuf *sb)
{
	int bol = 1;

	for (size_t i = 0; i < sb->len; i++) {
		if (bol)
			putchar(' ');
		putchar(sb->buf[i]);
		bol = sb->buf[i] == '\n';
	}
	if (!bol)
		putchar('\n');
}

static int print_overview(struct pp_deb *deb, struct pp_ctrl_members *cm,
			  struct pp_err *err)
{
	const struct pp_ctrl_member *control;

	printf(" new Debian package, version 2.%d.\n"
	       " size %lld bytes: control archive=%lld bytes.\n", deb->minor,
	       (long long)deb->ar.size, (long long)deb->control.size);
	for (size_t i = 0; i < cm->nr; i++) {
		if (cm->m[i].plain)
			describe(&cm->m[i]);
		else
			printf("     not a plain file          %s\n",
			       cm->m[i].name);
	}
	control = pp_ctrl_members_find(cm, "control");
	if (control)
		print_indented(&control->data);
	else /* a warning, as dpkg-deb: the rest was worth showing */
		pp_warn(err, "padpack info: warning: '%s' has no 'control' "
			"file in its control archive", deb->ar.path);
	return 0;
}

static int print_files(struct pp_deb *deb, struct pp_ctrl_members *cm,
		       int argc, char **argv, struct pp_err *err)
{
	int missing = 0;

	for (int i = 0; i < argc; i++) {
		const struct pp_ctrl_member *m = pp_ctrl_members_find(cm, argv[i]);

		if (!m) {
			fprintf(stderr, "padpack info: '%s' contains no control "
				"file '%s'\n", deb->ar.path, argv[i]);
			missing++;
			continue;
		}
		fwrite(m->data.buf, 1, m->data.len, stdout);
	}
	if (missing)
		return pp_err_set(err, PP_EXIT_FAIL, "%d requested control "
				  "file%s missing", missing,
				  missing == 1 ? " is" : "s are");
	return 0;
}

static int print_json(struct pp_deb *deb, struct pp_ctrl_members *cm,
		      int argc, char **argv, struct pp_err *err)
{
	int missing = 0;
	json_t *doc = argc ? pp_json_info_files(deb->ar.path, cm, argc, argv,
						&missing) :
		pp_json_info(deb, cm, err);

	if (pp_json_write(stdout, doc, err) < 0)
		return -1;
	if (missing)
		return pp_err_set(err, PP_EXIT_FAIL, "%d requested control "
				  "file%s missing", missing,
				  missing == 1 ? " is" : "s are");
	return 0;
}

static int run(int argc, char **argv, struct pp_err *err)
{
	int json = pp_take_flag(&argc, argv, "--json");
	struct pp_ctrl_members cm;
	struct pp_deb deb;
	int rc;

	if (argc < 2 || argv[1][0] == '-')
		return pp_usage_error(err, "expected a .deb file");
	if (pp_deb_open(&deb, argv[1], err) < 0)
		return -1;
	rc = pp_deb_read_control(&deb, &cm, err);
	if (!rc) {
		rc = json ? print_json(&deb, &cm, argc - 2, argv + 2, err) :
			argc > 2 ? print_files(&deb, &cm, argc - 2, argv + 2, err) :
			print_overview(&deb, &cm, err);
		pp_ctrl_members_release(&cm);
	}
	pp_deb_close(&deb);
	return rc;
}

const struct pp_cmd cmd_info = {
	"info", run, "show a package's control information (dpkg-deb --info)",
	usage,
};
