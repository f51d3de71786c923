// QW_SCATTER evidence: 8-byte elements stored to shared local memory at per-lane
// (scattered) offsets: one, two and four qwords per lane.
__kernel void qw_store(__global ulong *out, __global const uint *idx,
                       __global const ulong *a, __global const ulong2 *b,
                       __global const ulong4 *c)
{
    __local ulong lm1[256];
    __local ulong2 lm2[256];
    __local ulong4 lm4[256];
    int i = get_global_id(0);
    uint j = idx[i] & 255;
    lm1[j] = a[i];
    lm2[j] = b[i];
    lm4[j] = c[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint k = (j * 7) & 255;
    out[i] = lm1[k] + lm2[k].x + lm2[k].y + lm4[k].x + lm4[k].w;
}
