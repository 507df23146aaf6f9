//! A shared uniforms block bound to a `var<uniform>` binding: the block adopts the binding's
//! layout on its first bind and is checked by shape against every later one.

use std::sync::Arc;

use vgpu_core::BindingKind;

use super::Assigned;
use crate::error::Result;
use crate::state::State;
use crate::state::operation::BindingContent;
use crate::state::resources::BlockRecord;

impl State {
    /// `block` for binding `t`; `None` when the binding already holds it.
    pub(super) fn assign_block(
        &mut self,
        t: &Assigned<'_>,
        block: &Arc<BlockRecord>,
    ) -> Result<Option<BindingContent>> {
        if t.binding.kind != BindingKind::UniformBuffer {
            return Err(t.kind_error(
                "a uniforms block (binds to var<uniform> only; use a Buffer for storage)",
            ));
        }
        let info = &t.program.shader.core.bindings()[t.binding.info];
        let Some(plan) = info.plan.clone() else {
            return Err(t.kind_error("a uniforms block"));
        };
        let owner = block.owner;
        if let Some(BindingContent::Block { owner: o, .. }) =
            self.ops.get(t.key).map(|op| &op.contents[t.index])
            && *o == owner
        {
            return Ok(None);
        }
        self.adopt_block(owner, &block.label, &plan, t.label, &t.binding.name)?;
        Ok(Some(BindingContent::Block {
            owner,
            block: block.clone(),
        }))
    }
}
