// SCATTER4_TYPED evidence: an image write; on pvc Intel's compiler writes it in SIMD16.
__kernel void img_write(__write_only image2d_t img, __global const float4 *src)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    write_imagef(img, (int2)(x, y), src[y * get_global_size(0) + x]);
}
