/* paddle._paddle: the Python binding of libpaddle (CPython C API). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "paddle/paddle.h"

/* Copies a sequence of equally long sequences of numbers into out
 * (rows * cols floats, newly allocated). */
static int to_matrix(PyObject *obj, const char *what, float **out,
		     Py_ssize_t *rows, Py_ssize_t *cols)
{
	PyObject *seq = PySequence_Fast(obj, "matrix must be a sequence");
	Py_ssize_t r, c = -1;

	if (!seq)
		return -1;
	r = PySequence_Fast_GET_SIZE(seq);
	*out = NULL;
	for (Py_ssize_t i = 0; i < r; i++) {
		PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, i),
						"matrix rows must be sequences");
		Py_ssize_t n = row ? PySequence_Fast_GET_SIZE(row) : 0;

		if (row && c >= 0 && n != c)
			PyErr_Format(PyExc_ValueError, "%s: row %zd has %zd "
				     "elements, row 0 has %zd", what, i, n, c);
		if (row && c < 0) {
			c = n;
			*out = PyMem_Calloc(r * c + 1, sizeof(float));
		}
		for (Py_ssize_t j = 0; row && *out && !PyErr_Occurred() &&
		     j < n; j++)
			(*out)[i * c + j] = (float)PyFloat_AsDouble(
				PySequence_Fast_GET_ITEM(row, j));
		Py_XDECREF(row);
		if (PyErr_Occurred() || !*out)
			goto fail;
	}
	Py_DECREF(seq);
	*rows = r;
	*cols = c < 0 ? 0 : c;
	return 0;
fail:
	if (!PyErr_Occurred())
		PyErr_NoMemory();
	PyMem_Free(*out);
	Py_DECREF(seq);
	return -1;
}

static PyObject *to_list(const float *m, Py_ssize_t rows, Py_ssize_t cols)
{
	PyObject *list = PyList_New(rows);

	for (Py_ssize_t i = 0; list && i < rows; i++) {
		PyObject *row = PyList_New(cols);

		for (Py_ssize_t j = 0; row && j < cols; j++)
			PyList_SET_ITEM(row, j,
					PyFloat_FromDouble(m[i * cols + j]));
		if (!row) {
			Py_CLEAR(list);
			break;
		}
		PyList_SET_ITEM(list, i, row);
	}
	return list;
}

static PyObject *matmul(PyObject *self, PyObject *args)
{
	PyObject *pa, *pb, *res = NULL;
	float *a = NULL, *b = NULL, *c = NULL;
	Py_ssize_t m, k, k2, n;
	int device = PADDLE_DEVICE_DEFAULT, st;

	(void)self;
	if (!PyArg_ParseTuple(args, "OO|i", &pa, &pb, &device) ||
	    to_matrix(pa, "a", &a, &m, &k) < 0 ||
	    to_matrix(pb, "b", &b, &k2, &n) < 0)
		goto out;
	if (k != k2) {
		PyErr_Format(PyExc_ValueError, "shapes %zdx%zd and %zdx%zd do "
			     "not multiply", m, k, k2, n);
		goto out;
	}
	c = PyMem_Calloc(m * n + 1, sizeof(float));
	if (!c) {
		PyErr_NoMemory();
		goto out;
	}
	st = paddle_sgemm(device, (int)m, (int)n, (int)k, a, b, c);
	if (st != PADDLE_OK)
		PyErr_SetString(PyExc_RuntimeError, paddle_strerror(st));
	else
		res = to_list(c, m, n);
out:
	PyMem_Free(a);
	PyMem_Free(b);
	PyMem_Free(c);
	return res;
}

static PyObject *build_info(PyObject *self, PyObject *unused)
{
	(void)self;
	(void)unused;
	return Py_BuildValue("{ssssssssssss}", "version", paddle_version(),
			     "variant", paddle_variant(), "device",
			     paddle_device(), "isa", paddle_isa(), "level",
			     paddle_isa_level(), "library",
			     paddle_library_path());
}

static PyMethodDef methods[] = {
	{ "matmul", matmul, METH_VARARGS,
	  "matmul(a, b, device=0) -> a x b as a list of lists of floats" },
	{ "build_info", build_info, METH_NOARGS,
	  "build_info() -> dict of version, variant, device, isa, level "
	  "and library (the file loaded)" },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef module = {
	PyModuleDef_HEAD_INIT, "paddle._paddle",
	"Binding of libpaddle, the Paddle core.", -1, methods,
	NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__paddle(void)
{
	static const struct { const char *name; int value; } consts[] = {
		{ "DEVICE_DEFAULT", PADDLE_DEVICE_DEFAULT },
		{ "DEVICE_CPU", PADDLE_DEVICE_CPU },
		{ "DEVICE_GPU", PADDLE_DEVICE_GPU },
	};
	PyObject *mod = PyModule_Create(&module);

	for (size_t i = 0; mod && i < sizeof(consts) / sizeof(consts[0]); i++)
		if (PyModule_AddIntConstant(mod, consts[i].name, consts[i].value))
			Py_CLEAR(mod);
	return mod;
}
