
                @group(0) @binding(0) var<storage, read_write> out: array<u32>;
                @compute @workgroup_size(1) fn cs_main() { out[0] = 1u; }