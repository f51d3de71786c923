// A 3D image read and written at integer coordinates (3D_LOAD `ld_lz`, SCATTER4_TYPED or
// LSC_TYPED's `lsc_store_quad.tgm`). Writing a 3D image needs cl_khr_3d_image_writes, which
// ocloc 26.27 does not offer on cri ("use of type '__write_only image3d_t' requires
// cl_khr_3d_image_writes support"): the kernel has a file of its own, so that the others
// compile there.

#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable

// A 3D image read and written at integer coordinates.
kernel void image_3d_copy(read_only image3d_t src, write_only image3d_t dst) {
    int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    float4 v = read_imagef(src, p);
    write_imagef(dst, p, v * 2.0f + (float4)(p.x, p.y, p.z, 1.0f));
}
