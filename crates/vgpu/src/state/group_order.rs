//! The order a program's bind groups take on the device: groups that hold only library-owned
//! values (every entry a buffer bound with a dynamic offset) after the others, each class in
//! WGSL order.
//!
//! Why: wgpu (30) re-emits every bind group after the lowest one that changed before each draw
//! (`Binder::take_rebind_start_index`), in passes and in render bundles alike, and each
//! re-emitted group costs a backend call plus, at every bundle replay and pass flush, one
//! memory-init check per texture it holds. A value group changes its dynamic offset with every
//! draw whose value lives in another slot (per-object values); a group of textures, samplers or
//! user buffers changes only when a binding is pointed at another resource. With `@group(1)`
//! per-object values before a `@group(2)` of lights and shadow maps (the `scene` example), wgpu
//! sets both groups at every draw; with the value group last, only it. Shaders keep their WGSL
//! group numbers everywhere users see them (reflection, errors, claims, the inspector); the
//! module given to wgpu is the reflected one with its groups renumbered ([`remap_module`]).
//!
//! The cost: when a draw-by-draw changing resource group follows a value group that changes
//! once per pass (a camera), that value group is re-emitted with it. Programs with claimed
//! groups keep the WGSL order (the caller made those groups' bind groups for those numbers), and
//! so do all programs in a browser (WebGPU takes WGSL text: wgpu would write the renumbered module
//! back to WGSL with naga's writer, and unwraps its result).

use smallvec::SmallVec;
use vgpu_core::PipelineLayoutDesc;

/// Whether each group of `desc` (by WGSL number) holds only library-owned values: every entry a
/// buffer bound with a dynamic offset.
pub(crate) fn value_groups(desc: &PipelineLayoutDesc) -> SmallVec<[bool; 8]> {
    desc.groups
        .iter()
        .map(|g| !g.entries.is_empty() && g.entries.iter().all(|e| e.has_dynamic_offset))
        .collect()
}

/// The WGSL group number of each device slot, when it differs from the WGSL order: value groups
/// (`value[g]`) after the others. `None`: the WGSL order is kept (already in that order, or
/// groups are claimed: `claimed` non-zero).
pub(crate) fn device_order(value: &[bool], claimed: u8) -> Option<SmallVec<[u32; 8]>> {
    if claimed != 0 {
        return None;
    }
    let class = |want: bool| {
        value
            .iter()
            .enumerate()
            .filter(move |(_, v)| **v == want)
            .map(|(g, _)| g as u32)
    };
    let order: SmallVec<[u32; 8]> = class(false).chain(class(true)).collect();
    let identity = order.iter().enumerate().all(|(slot, &g)| slot as u32 == g);
    (!identity).then_some(order)
}

/// `module` with each resource binding's group renumbered to its device slot (`order[slot]` is
/// the WGSL group number). Groups past `order` (of entry points the program does not use) keep
/// their numbers: the renumbering is a bijection of `0..order.len()`, so no two bindings collide.
pub(crate) fn remap_module(module: &naga::Module, order: &[u32]) -> naga::Module {
    let mut module = module.clone();
    for (_, var) in module.global_variables.iter_mut() {
        if let Some(binding) = &mut var.binding
            && let Some(slot) = order.iter().position(|&g| g == binding.group)
        {
            binding.group = slot as u32;
        }
    }
    module
}

#[cfg(test)]
mod tests {
    use super::device_order;

    #[test]
    fn value_groups_follow_resource_groups() {
        // camera, object, lights + shadow maps (the scene example's lit shader)
        assert_eq!(
            device_order(&[true, true, false], 0).as_deref(),
            Some(&[2, 0, 1][..])
        );
        assert_eq!(
            device_order(&[true, false], 0).as_deref(),
            Some(&[1, 0][..])
        );
        // already in that order, all of one class, or claimed: kept
        assert_eq!(device_order(&[false, true], 0), None);
        assert_eq!(device_order(&[true, true], 0), None);
        assert_eq!(device_order(&[false, false, false], 0), None);
        assert_eq!(device_order(&[true, false], 0b1), None);
    }
}
