{input_src}@group(0) @binding(1) var<storage, read_write> dst_words: array<u32>;
@compute @workgroup_size(1)
fn cs_main() {{
    {}
}}
