//! A value for a runtime-sized storage array (`var<storage> items: array<Item>`) replaces the
//! whole array: `arrayLength` equals the new count, growing and shrinking work (the storage
//! buffer and its bind group follow), and an empty array is refused with `VGPU-SET-EMPTY-ARRAY`
//! (WebGPU cannot bind a zero-length array), leaving the previous array bound. Read back from
//! what a compute pass saw on the device; counters on noop.

use vgpu::{BufferDesc, Compute, ComputeDesc, Gpu, Value, value};
use vgpu_tests::each_gpu;

/// Copies `arrayLength(&items)` and every `items[i].v` into `out`.
const COPY_TOP_LEVEL: &str = "
struct Item { v: vec4f }
@group(0) @binding(0) var<storage, read> items: array<Item>;
@group(0) @binding(1) var<storage, read_write> out: array<vec4f>;
@compute @workgroup_size(1) fn cs_main() {
    let n = arrayLength(&items);
    out[0] = vec4f(f32(n), 0.0, 0.0, 0.0);
    for (var i = 0u; i < n && i < 15u; i++) { out[i + 1u] = items[i].v; }
}";

/// The same with a fixed part before the array.
const COPY_TAIL: &str = "
struct Data { count: u32, scale: f32, items: array<vec4f> }
@group(0) @binding(0) var<storage, read> data: Data;
@group(0) @binding(1) var<storage, read_write> out: array<vec4f>;
@compute @workgroup_size(1) fn cs_main() {
    let n = arrayLength(&data.items);
    out[0] = vec4f(f32(n), f32(data.count), data.scale, 0.0);
    for (var i = 0u; i < n && i < 15u; i++) { out[i + 1u] = data.items[i]; }
}";

struct Copier {
    gpu: Gpu,
    k: Compute,
    out: vgpu::Buffer,
}

impl Copier {
    fn new(gpu: &Gpu, wgsl: &str) -> Copier {
        let shader = gpu.shader("copy", wgsl).unwrap();
        let k = gpu.compute(&shader, ComputeDesc::default()).unwrap();
        let out = gpu
            .buffer(&BufferDesc {
                label: "out".into(),
                size: 16 * 16,
                usage: wgpu::BufferUsages::STORAGE,
            })
            .unwrap();
        k.set("out", &out).unwrap();
        Copier {
            gpu: gpu.clone(),
            k,
            out,
        }
    }

    /// Dispatches; on a real device returns `out[0]` and the first `n` copied vectors.
    fn run(&self) -> Option<([f32; 4], Vec<[f32; 4]>)> {
        self.dispatch();
        self.read()
    }

    fn dispatch(&self) {
        self.gpu
            .frame(|f| f.compute_pass(|c| c.dispatch(&self.k, 1, 1, 1)))
            .unwrap();
    }

    /// `out[0]` and the first `n` copied vectors (read-back creates a staging buffer).
    fn read(&self) -> Option<([f32; 4], Vec<[f32; 4]>)> {
        if self.gpu.is_noop() {
            return None;
        }
        let words: Vec<[f32; 4]> = bytemuck::pod_collect_to_vec(&self.out.read_blocking().unwrap());
        let head = words[0];
        let n = head[0] as usize;
        Some((head, words[1..=n].to_vec()))
    }
}

fn items(vs: &[f32]) -> Value {
    Value::Array(
        vs.iter()
            .map(|&v| value! { v: [v, v + 0.5, 0.0, 1.0] })
            .collect(),
    )
}

fn expect(vs: &[f32]) -> Vec<[f32; 4]> {
    vs.iter().map(|&v| [v, v + 0.5, 0.0, 1.0]).collect()
}

#[test]
fn a_top_level_runtime_array_is_replaced_whole() {
    each_gpu(|gpu| {
        let c = Copier::new(gpu, COPY_TOP_LEVEL);
        c.k.set("items", items(&[1.0, 2.0, 3.0])).unwrap();
        if let Some((head, got)) = c.run() {
            assert_eq!(head[0], 3.0);
            assert_eq!(got, expect(&[1.0, 2.0, 3.0]));
        }
        // Shrink: arrayLength 2, no element of the old array left.
        let before = gpu.stats();
        c.k.set("items", items(&[10.0, 20.0])).unwrap();
        c.dispatch();
        let s = gpu.stats() - before;
        if let Some((head, got)) = c.read() {
            assert_eq!(head[0], 2.0, "shrunk");
            assert_eq!(got, expect(&[10.0, 20.0]));
        }
        assert_eq!(s.buffers_created, 1, "a storage buffer of the new size");
        assert_eq!(
            s.bind_groups_created, 1,
            "the bind group follows the buffer"
        );
        // Grow past the first size.
        c.k.set("items", items(&[5.0, 6.0, 7.0, 8.0, 9.0])).unwrap();
        if let Some((head, got)) = c.run() {
            assert_eq!(head[0], 5.0, "grown");
            assert_eq!(got, expect(&[5.0, 6.0, 7.0, 8.0, 9.0]));
        }
        // Same size, new values: no new buffer or bind group.
        let before = gpu.stats();
        c.k.set("items", items(&[1.5, 2.5, 3.5, 4.5, 5.5])).unwrap();
        c.dispatch();
        let s = gpu.stats() - before;
        if let Some((head, got)) = c.read() {
            assert_eq!(head[0], 5.0, "same size");
            assert_eq!(got, expect(&[1.5, 2.5, 3.5, 4.5, 5.5]));
        }
        assert_eq!((s.buffers_created, s.bind_groups_created), (0, 0));
        assert_eq!(s.bytes_uploaded, 5 * 16);
        // Empty: refused, the previous array stays bound.
        let e = c.k.set("items", Value::Array(vec![])).unwrap_err();
        assert_eq!(e.code(), "VGPU-SET-EMPTY-ARRAY", "{e}");
        assert!(e.to_string().contains("`items`"), "{e}");
        let e = c.k.set_bytes("items", &[]).unwrap_err();
        assert_eq!(e.code(), "VGPU-SET-EMPTY-ARRAY", "{e}");
        if let Some((head, got)) = c.run() {
            assert_eq!(head[0], 5.0, "after the refused empty array");
            assert_eq!(got, expect(&[1.5, 2.5, 3.5, 4.5, 5.5]));
        }
        // Typed bytes replace the array too.
        let bytes: Vec<f32> = vec![7.0, 7.5, 0.0, 1.0];
        c.k.set_bytes("items", bytemuck::cast_slice(&bytes))
            .unwrap();
        if let Some((head, got)) = c.run() {
            assert_eq!(head[0], 1.0, "one element from bytes");
            assert_eq!(got, expect(&[7.0]));
        }
    });
}

#[test]
fn a_struct_tail_is_replaced_whole_and_other_members_merge() {
    each_gpu(|gpu| {
        let c = Copier::new(gpu, COPY_TAIL);
        let vecs = |vs: &[f32]| {
            Value::Array(
                vs.iter()
                    .map(|&v| Value::from([v, v + 0.5, 0.0, 1.0]))
                    .collect(),
            )
        };
        c.k.set(
            "data",
            value! { count: 3u32, scale: 2.0, items: vecs(&[1.0, 2.0, 3.0]) },
        )
        .unwrap();
        if let Some((head, got)) = c.run() {
            assert_eq!(head, [3.0, 3.0, 2.0, 0.0]);
            assert_eq!(got, expect(&[1.0, 2.0, 3.0]));
        }
        // A partial value without the array keeps the elements.
        c.k.set("data", value! { count: 9u32 }).unwrap();
        if let Some((head, got)) = c.run() {
            assert_eq!(head, [3.0, 9.0, 2.0, 0.0]);
            assert_eq!(got, expect(&[1.0, 2.0, 3.0]));
        }
        // A partial value with the array replaces it (shrinks) and keeps the other members.
        c.k.set("data", value! { items: vecs(&[4.0]) }).unwrap();
        if let Some((head, got)) = c.run() {
            assert_eq!(head, [1.0, 9.0, 2.0, 0.0]);
            assert_eq!(got, expect(&[4.0]));
        }
        // Member shorthand on the tail, growing it.
        c.k.set("items", vecs(&[6.0, 7.0])).unwrap();
        if let Some((head, got)) = c.run() {
            assert_eq!(head, [2.0, 9.0, 2.0, 0.0]);
            assert_eq!(got, expect(&[6.0, 7.0]));
        }
        let e =
            c.k.set("data", value! { items: Value::Array(vec![]) })
                .unwrap_err();
        assert_eq!(e.code(), "VGPU-SET-EMPTY-ARRAY", "{e}");
        assert!(e.to_string().contains("$.items"), "{e}");
    });
}

#[test]
fn a_bundle_that_recorded_a_runtime_array_is_stale_once_the_array_changes_length() {
    each_gpu(|gpu| {
        let draw = vgpu_tests::fullscreen(
            gpu,
            "first item",
            "@group(0) @binding(0) var<storage, read> items: array<vec4f>;
             @fragment fn fs_main() -> @location(0) vec4f { return items[arrayLength(&items) - 1u]; }",
        );
        let colors = |n: usize, c: [f32; 4]| Value::Array((0..n).map(|_| Value::from(c)).collect());
        draw.set("items", colors(2, [1.0, 0.0, 0.0, 1.0])).unwrap();
        let target = gpu.target(2, 2).unwrap();
        let bundle = gpu
            .bundle("items", target.signature(), |b| b.draw(&draw))
            .unwrap();
        let replay = || gpu.frame(|f| f.pass(&target, |p| p.execute(&bundle)));
        replay().unwrap();
        // Same length: the bundle reads the live value.
        draw.set("items", colors(2, [0.0, 1.0, 0.0, 1.0])).unwrap();
        replay().unwrap();
        if !gpu.is_noop() {
            assert_eq!(
                target.read_rgba8().unwrap().pixel(0, 0),
                Some([0, 255, 0, 255])
            );
        }
        // Another length: another buffer, which the bundle did not record.
        draw.set("items", colors(3, [0.0, 0.0, 1.0, 1.0])).unwrap();
        let e = replay().unwrap_err();
        assert_eq!(e.code(), "VGPU-BUNDLE-STALE", "{e}");
        // Drawn directly, the draw sees the new array.
        gpu.frame(|f| f.pass(&target, |p| p.draw(&draw))).unwrap();
        if !gpu.is_noop() {
            assert_eq!(
                target.read_rgba8().unwrap().pixel(0, 0),
                Some([0, 0, 255, 255])
            );
        }
    });
}
