// Sub-group block reads and writes (Intel's extensions): oword and LSC block messages.
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
#pragma OPENCL EXTENSION cl_intel_subgroups_short : enable
kernel void block_io(global uint *a, global ushort *s, local uint *l) {
    uint x = intel_sub_group_block_read(a);
    uint4 y = intel_sub_group_block_read4(a + 64);
    ushort z = intel_sub_group_block_read_us(s);
    l[get_local_id(0)] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    intel_sub_group_block_write(a + 128, x + y.x + y.w + l[get_local_id(0) ^ 1]);
    intel_sub_group_block_write_us(s + 64, z);
}
