
                @group(0) @binding(0) var<storage, read_write> counter: array<atomic<u32>, 4>;
                @compute @workgroup_size(1) fn cs_main() { atomicAdd(&counter[0], 1u); }