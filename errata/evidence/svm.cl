// SVM evidence: stateless accesses through pointers read from memory (not kernel
// arguments), so Intel's compiler cannot bind them to a surface.
__kernel void svm_k(__global const ulong *ptrs, __global ulong *out,
                    __global uint *uout)
{
    int i = get_global_id(0);
    __global ulong *p = (__global ulong *)ptrs[i];  // per-lane pointer: 8-byte gather
    out[i] = p[i & 3];
    __global uint *q = (__global uint *)ptrs[0];    // uniform pointer: sub-group block read
    uint v = intel_sub_group_block_read(q + 3);
    uout[i] = v;
}
