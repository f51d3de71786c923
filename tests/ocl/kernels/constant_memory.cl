// Constant memory, a struct argument and a constant table.
typedef struct { int scale; float bias; int pad[2]; } params_t;
constant int table[8] = {1, 3, 5, 7, 11, 13, 17, 19};
kernel void constant_memory(global float *a, constant float *coeff, params_t p) {
    size_t i = get_global_id(0);
    a[i] = a[i] * coeff[i & 15] * p.scale + p.bias + table[i & 7];
}
