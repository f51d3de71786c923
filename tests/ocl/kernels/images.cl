// Images: sampled reads, unsampled reads and writes, image queries.
constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
kernel void images(read_only image2d_t src, write_only image2d_t dst, global int *dims) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 s = read_imagef(src, smp, p);
    float4 t = read_imagef(src, p + (int2)(1, 0));
    write_imagef(dst, p, s * 0.5f + t * 0.5f);
    if (p.x == 0 && p.y == 0) {
        dims[0] = get_image_width(src);
        dims[1] = get_image_height(src);
    }
}
