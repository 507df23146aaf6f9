//! `set_all`: many bindings of one operation set by name, atomically. Each goes through
//! [`State::set_by_name`]; if one is rejected, every binding gets back what it held before
//! (contents, value bytes and the binding revision).

use vgpu_uniforms::OwnerKey;

use crate::error::Result;
use crate::state::State;
use crate::state::binding_input::BindingInput;
use crate::state::operation::{BindingContent, OpKey};

impl State {
    /// `Draw::set_all`: applies every binding in order; if one is rejected, puts back what each
    /// held before and returns that error.
    pub(crate) fn set_all_by_name(
        &mut self,
        key: OpKey,
        inputs: &[(&str, BindingInput<'_>)],
    ) -> Result<()> {
        let Some(op) = self.ops.get(key) else {
            return Ok(());
        };
        // The bytes of every value owner that existed before (restored on failure).
        let mut saved_bytes: Vec<(OwnerKey, Vec<u8>)> = Vec::new();
        for content in &op.contents {
            if let BindingContent::Value { owner, .. } = content
                && let Some(b) = self.engine.bytes(*owner)
            {
                saved_bytes.push((*owner, b.to_vec()));
            }
        }
        let saved_rev = op.bindings_rev;
        let outer = self.set_all_replaced.replace(Vec::new());
        let mut result = Ok(());
        for (name, input) in inputs {
            if let Err(e) = self.set_by_name(key, name, input.clone()) {
                result = Err(e);
                break;
            }
        }
        let replaced = std::mem::replace(&mut self.set_all_replaced, outer).unwrap_or_default();
        match result {
            Ok(()) => {
                for (_, old) in replaced {
                    self.release_content(old);
                }
            }
            Err(_) => self.roll_back(key, replaced, saved_bytes, saved_rev),
        }
        result
    }

    /// Puts back the contents `set_all` replaced (latest first, so each binding ends with what
    /// it held before) and the previous bytes of value owners, releasing what `set_all` created.
    fn roll_back(
        &mut self,
        key: OpKey,
        replaced: Vec<(usize, BindingContent)>,
        bytes: Vec<(OwnerKey, Vec<u8>)>,
        saved_rev: u64,
    ) {
        for (owner, b) in bytes {
            let _ = self.engine.set_bytes(owner, &b);
        }
        let Some(op) = self.ops.get_mut(key) else {
            return;
        };
        let mut created = Vec::new();
        for (i, old) in replaced.into_iter().rev() {
            created.push(std::mem::replace(&mut op.contents[i], old));
        }
        op.fast.unset = op.count_unset();
        // Every binding holds what it held before `set_all` (nothing was recorded in between),
        // so the binding revision is restored too: bundles recorded before stay valid (the
        // group memos were forgotten and rebuild at the next record, from the bind-group cache).
        op.bindings_rev = saved_rev;
        op.rebuild_group_values();
        for content in created {
            self.release_content(content);
        }
    }
}
