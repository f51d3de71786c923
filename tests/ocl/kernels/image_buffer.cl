// 1D buffer images and integer image formats.
kernel void image_buffer(read_only image1d_buffer_t src, write_only image1d_buffer_t dst) {
    int i = get_global_id(0);
    uint4 v = read_imageui(src, i);
    write_imageui(dst, i, v.wzyx + (uint4)(1, 2, 3, 4));
}
