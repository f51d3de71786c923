// devices: acm-g10 acm-g10-rev0
// DPAS on DG2 (native SIMD 8): IGC 12504.6 has no cl_intel_subgroup_matrix_multiply_accumulate
// builtins in OpenCL C, so its own builtins, declared here as IGC declares them
// (IGCBiF_Intrinsics_Dpas.cl: `<a>_<b>_<depth>_<repeat count>`, repeat count 1 for one `int`
// accumulator per work-item), give the integer and bf16/fp16 forms.
int __builtin_IB_sub_group_idpas_s8_s8_8_1(int acc, int a, int8 b) __attribute__((const));
int __builtin_IB_sub_group_idpas_u8_u8_8_1(int acc, int a, int8 b) __attribute__((const));
float __builtin_IB_sub_group_fdpas_bf_bf_8_1(float acc, int a, int8 b) __attribute__((const));
float __builtin_IB_sub_group_fdpas_hf_hf_8_1(float acc, int a, int8 b) __attribute__((const));
__attribute__((intel_reqd_sub_group_size(8)))
kernel void dpas_simd8(global const int *a, global const int8 *b, global int *c, global float *d) {
    size_t i = get_global_id(0);
    c[i] = __builtin_IB_sub_group_idpas_s8_s8_8_1(c[i], a[i], b[i]);
    c[i + 1] = __builtin_IB_sub_group_idpas_u8_u8_8_1(c[i + 1], a[i], b[i]);
    d[i] = __builtin_IB_sub_group_fdpas_bf_bf_8_1(d[i], a[i], b[i]);
    d[i + 1] = __builtin_IB_sub_group_fdpas_hf_hf_8_1(d[i + 1], a[i], b[i]);
}
