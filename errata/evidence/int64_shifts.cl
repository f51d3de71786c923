kernel void shifts(global ulong *a, global long *b, int n) {
  size_t i = get_global_id(0);
  a[i] = (a[i] << 2) + (a[i] >> (n & 63));
  b[i] = b[i] >> 3;
  barrier(CLK_LOCAL_MEM_FENCE);
}
