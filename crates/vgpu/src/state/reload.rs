//! Moving every operation of one shader onto another (`Gpu::replace_shader`, hot reload): per
//! operation a program of the new shader with the same entry points and claims, and its
//! bindings' contents moved by WGSL name.
//!
//! Two phases, so that a refused replacement changes nothing: first each operation's new
//! program is made and checked against what the operation was built for (vertex inputs, fragment
//! outputs, override constants, claimed groups' layouts); then the contents move. A binding of the
//! new program takes the content of the old binding of the same name when both have the same
//! kind and, for buffers, the same shape (`TypeLayout::shape_difference`: member names, types,
//! offsets); a typed value, a shared block and a user resource keep working as they were. What
//! does not move is *parked* on the operation, by name, with its kind and shape: a binding that
//! vanished (its use commented out) or changed type, and a later replacement that brings the
//! binding back as it was restores it. Parked contents stay alive (their owners, their
//! resources) until restored or until the operation is removed, so nothing set is lost across
//! edits.
//!
//! Everything derived from the old program goes: group memos, pipelines, the fast record, the
//! auto-bundles' sequences (the journal notes each operation), followers' binding indices are
//! renumbered. The replaced shader's programs leave the program cache (they keep its module
//! alive otherwise); its render pipelines stay in the pipeline table, whose ids index it.

use std::sync::Arc;

use smallvec::SmallVec;
use vgpu_core::{BindingKind, TypeLayout};

use super::State;
use super::memo::Groups;
use super::operation::{BindingContent, OpKey, OperationKind};
use super::program::Program;
use super::resources::ShaderRecord;
use crate::error::Result;
use crate::reload_error::ReloadError;
use crate::shader_reload::{BindingFate, ReloadedBinding, ShaderReload};

/// A binding's content kept aside by a replacement (see the module doc).
#[derive(Debug)]
pub(crate) struct Parked {
    name: Arc<str>,
    kind: BindingKind,
    layout: Option<Arc<TypeLayout>>,
    content: BindingContent,
}

impl State {
    /// Moves every operation whose program is of shader `old` onto `new` (see the module doc).
    /// Refused (nothing changed) when an operation cannot take `new`: `VGPU-SHADER-RELOAD`.
    pub(crate) fn replace_shader(
        &mut self,
        old: &Arc<ShaderRecord>,
        new: &Arc<ShaderRecord>,
    ) -> Result<ShaderReload> {
        let keys: Vec<OpKey> = self
            .ops
            .iter()
            .filter(|(_, op)| op.program.shader.id == old.id)
            .map(|(k, _)| k)
            .collect();
        let mut plans = Vec::with_capacity(keys.len());
        for key in keys {
            let Some(op) = self.ops.get(key) else {
                continue;
            };
            let before = op.program.clone();
            let draw = op.label.to_string();
            let refuse = |reason: String| -> crate::error::Error {
                ReloadError::Incompatible {
                    shader: new.label().to_owned(),
                    replaced: old.label().to_owned(),
                    draw: draw.clone(),
                    reason,
                }
                .into()
            };
            let constants = match &op.kind {
                OperationKind::Render(r) => r.state_key.constants.clone(),
                OperationKind::Compute(c) => c.constants.clone(),
            };
            let after = self
                .claimed_program(new, before.stages.clone(), before.claims)
                .map_err(|e| refuse(e.to_string()))?;
            check_interface(&before, &after, &constants).map_err(refuse)?;
            plans.push((key, after));
        }
        let mut replaced = ShaderReload::default();
        for (key, program) in plans {
            self.reprogram(key, program, &mut replaced.bindings);
            replaced.operations += 1;
        }
        self.programs.retain(|k, _| k.0 != old.id);
        let compute_gone: SmallVec<[u64; 4]> = self
            .compute_pipelines
            .keys()
            .map(|k| k.0)
            .filter(|id| !self.programs.values().any(|p| p.id == *id))
            .collect();
        self.compute_pipelines
            .retain(|k, _| !compute_gone.contains(&k.0));
        Ok(replaced)
    }

    /// Gives operation `key` `program` (of another shader, checked by `replace_shader`) and
    /// moves its contents by binding name, noting each binding's fate in `moves`.
    fn reprogram(&mut self, key: OpKey, program: Arc<Program>, moves: &mut Vec<ReloadedBinding>) {
        let mut parked = self.parked.remove(&key).unwrap_or_default();
        let Some(op) = self.ops.get_mut(key) else {
            return;
        };
        let draw = op.label.to_string();
        let old = std::mem::replace(&mut op.program, program.clone());
        let old_contents = std::mem::take(&mut op.contents);
        let mut moved = Moved {
            contents: super::operation::Contents::with_capacity(program.bindings.len()),
            renumbered: vec![None; old.bindings.len()],
            stale: Vec::new(),
        };
        let mut old_contents: Vec<Option<BindingContent>> =
            old_contents.into_iter().map(Some).collect();
        let mut note = |binding: &str, fate| {
            moves.push(ReloadedBinding {
                draw: draw.clone(),
                binding: binding.to_owned(),
                fate,
            });
        };
        take_by_name(
            &old,
            &program,
            &mut old_contents,
            &mut parked,
            &mut moved,
            &mut note,
        );
        park_the_rest(&old, old_contents, &mut parked, &mut moved, &mut note);
        install(op, &program, moved.contents);
        self.note_op_changed(key);
        self.remap_followers(key, &moved.renumbered);
        for content in moved.stale {
            self.release_content(content);
        }
        if !parked.is_empty() {
            self.parked.insert(key, parked);
        }
    }

    /// Releases what operation `key` parked (it is being removed).
    pub(crate) fn release_parked(&mut self, key: OpKey) {
        if let Some(parked) = self.parked.remove(&key) {
            for p in parked {
                self.release_content(p.content);
            }
        }
    }
}

/// What moving an operation's contents made: its new contents (the new program's binding
/// order), where each old binding went, and parked contents that newer ones replaced (released
/// by the caller).
struct Moved {
    contents: super::operation::Contents,
    renumbered: Vec<Option<usize>>,
    stale: Vec<BindingContent>,
}

/// A binding's kind and reflected layout in `program`.
fn binding_shape(program: &Program, i: usize) -> (BindingKind, Option<Arc<TypeLayout>>) {
    let b = &program.bindings[i];
    let layout = program
        .shader
        .core
        .bindings()
        .get(b.info)
        .and_then(|x| x.layout.clone());
    (b.kind, layout)
}

/// Gives each binding of `new` the content of `old`'s binding of its name when kind and shape
/// agree (else parks that content), or a parked content of its name and shape, or nothing.
fn take_by_name(
    old: &Program,
    new: &Program,
    old_contents: &mut [Option<BindingContent>],
    parked: &mut Vec<Parked>,
    moved: &mut Moved,
    note: &mut impl FnMut(&str, BindingFate),
) {
    for (n, pb) in new.bindings.iter().enumerate() {
        let (_, layout) = binding_shape(new, n);
        let previous = old
            .bindings
            .iter()
            .position(|b| b.name == pb.name)
            .filter(|&i| !matches!(old_contents[i], Some(BindingContent::Unset) | None));
        if let Some(i) = previous {
            let (kind, old_layout) = binding_shape(old, i);
            let content = old_contents[i].take().unwrap_or(BindingContent::Unset);
            match difference(kind, old_layout.as_deref(), pb.kind, layout.as_deref()) {
                None => {
                    moved.renumbered[i] = Some(moved.contents.len());
                    moved.contents.push(content);
                    note(&pb.name, BindingFate::Kept);
                }
                Some(difference) => {
                    note(
                        &pb.name,
                        BindingFate::Changed {
                            before: describe(kind, old_layout.as_deref()),
                            after: describe(pb.kind, layout.as_deref()),
                            difference,
                        },
                    );
                    parked.push(Parked {
                        name: pb.name.clone(),
                        kind,
                        layout: old_layout,
                        content,
                    });
                    moved.contents.push(BindingContent::Unset);
                }
            }
            continue;
        }
        let restorable = parked.iter().position(|p| {
            p.name == pb.name
                && difference(p.kind, p.layout.as_deref(), pb.kind, layout.as_deref()).is_none()
        });
        match restorable {
            Some(p) => {
                moved.contents.push(parked.swap_remove(p).content);
                note(&pb.name, BindingFate::Restored);
            }
            None => {
                moved.contents.push(BindingContent::Unset);
                note(&pb.name, BindingFate::Added);
            }
        }
    }
}

/// Parks what `old`'s bindings still hold (the new program does not use them); a content
/// parked earlier under the same name gives way (into `moved.stale`).
fn park_the_rest(
    old: &Program,
    old_contents: Vec<Option<BindingContent>>,
    parked: &mut Vec<Parked>,
    moved: &mut Moved,
    note: &mut impl FnMut(&str, BindingFate),
) {
    for (i, content) in old_contents.into_iter().enumerate() {
        let Some(content) = content.filter(|c| !matches!(c, BindingContent::Unset)) else {
            continue;
        };
        let (kind, layout) = binding_shape(old, i);
        let name = old.bindings[i].name.clone();
        if let Some(p) = parked.iter().position(|p| p.name == name) {
            moved.stale.push(parked.swap_remove(p).content);
        }
        note(&name, BindingFate::Vanished);
        parked.push(Parked {
            name,
            kind,
            layout,
            content,
        });
    }
}

/// Installs `program` and `contents` on `op`: fresh group memos (a claimed group keeps the
/// caller's bind group: `replace_shader` checked its layout, and claimed programs keep the WGSL
/// order, so a memo's index is its group number), no pipelines, the fast record rebuilt.
fn install(
    op: &mut super::operation::Operation,
    program: &Program,
    contents: super::operation::Contents,
) {
    let len = program.groups.len().min(super::command_sink::MAX_GROUPS);
    let mut groups = Groups::new(len);
    let old_len = op.fast.groups_len;
    for (gi, (memo, fresh)) in op
        .groups
        .iter_mut(old_len)
        .zip(groups.iter_mut(len as u8))
        .enumerate()
    {
        if memo.claimed().is_some() && program.claims.get(gi as u32).is_some() {
            std::mem::swap(memo, fresh);
        }
    }
    op.groups = groups;
    op.fast.groups_len = len as u8;
    op.contents = contents;
    match &mut op.kind {
        OperationKind::Render(r) => r.pipelines = Default::default(),
        OperationKind::Compute(c) => c.pipeline = None,
    }
    op.fast.unset = op.count_unset();
    op.bindings_changed();
    op.rebuild_group_values();
}

/// Whether the operation's pipeline inputs still hold with `after`: its vertex inputs (the
/// draw's vertex buffer layouts were checked against them), fragment outputs (the targets'),
/// override constants set on it, and the layouts of the groups it claimed (the caller's bind
/// groups were made for them).
fn check_interface(
    before: &Program,
    after: &Program,
    constants: &super::compute_info::ConstantSet,
) -> std::result::Result<(), String> {
    if before.vertex_inputs != after.vertex_inputs {
        return Err(format!(
            "its vertex inputs differ (before: {}; now: {}); the draw's vertex buffers were \
             laid out for the former",
            inputs(&before.vertex_inputs),
            inputs(&after.vertex_inputs)
        ));
    }
    if before.fragment_outputs != after.fragment_outputs {
        return Err(format!(
            "its fragment outputs differ (before: {} outputs; now: {})",
            before.fragment_outputs.len(),
            after.fragment_outputs.len()
        ));
    }
    let given: Vec<(String, f64)> = constants
        .for_wgpu()
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect();
    let entry_points: SmallVec<[&str; 2]> = match &after.stages {
        super::program::Stages::Render { vs, fs } => {
            std::iter::once(vs.as_str()).chain(fs.as_deref()).collect()
        }
        super::program::Stages::Compute { cs } => std::iter::once(cs.as_str()).collect(),
    };
    let label = after.shader.label();
    match after
        .shader
        .core
        .pipeline_constants_for(label, &entry_points, &given)
    {
        Err(e) => return Err(format!("its override constants: {e}")),
        Ok(set) if super::compute_info::ConstantSet::new(set.clone()) != *constants => {
            return Err("its override constants resolve differently (an `@id` changed)".to_owned());
        }
        Ok(_) => {}
    }
    for g in 0..8u32 {
        if before.claims.get(g).is_none() {
            continue;
        }
        let key = |p: &Program| {
            p.groups
                .iter()
                .find(|x| x.wgsl_group == g)
                .map(|x| x.layout_key)
        };
        if key(before) != key(after) {
            return Err(format!(
                "group {g} is claimed (the caller made its bind group) and its layout changed"
            ));
        }
    }
    Ok(())
}

fn inputs(inputs: &[vgpu_core::VertexInput]) -> String {
    if inputs.is_empty() {
        return "none".to_owned();
    }
    inputs
        .iter()
        .map(|i| format!("@location({}) {}: {:?}", i.location, i.name, i.format))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What differs between a binding as it was and as it is now (`None`: its content can move).
fn difference(
    kind: BindingKind,
    layout: Option<&TypeLayout>,
    new_kind: BindingKind,
    new_layout: Option<&TypeLayout>,
) -> Option<String> {
    if kind != new_kind {
        return Some(format!(
            "it was {}, it is now {}",
            kind.describe(),
            new_kind.describe()
        ));
    }
    match (layout, new_layout) {
        (Some(a), Some(b)) => a.shape_difference(b).map(|d| d.to_string()),
        (None, None) => None,
        _ => Some("its type changed".to_owned()),
    }
}

/// A binding's kind and type, for a report.
fn describe(kind: BindingKind, layout: Option<&TypeLayout>) -> String {
    match layout {
        Some(l) => format!("{} `{}` ({} bytes)", kind.describe(), l.name, l.size),
        None => kind.describe(),
    }
}
