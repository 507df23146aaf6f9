//! [`ShaderReload`]: what moving draws onto another shader did to each of their bindings
//! ([`Gpu::replace_shader`](crate::Gpu::replace_shader), hot reload).

/// What happened to one binding of a draw moved onto another shader.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BindingFate {
    /// Its content (value, block, buffer, texture, sampler) moved to the new shader's binding
    /// of the same name, which has the same kind and shape.
    Kept,
    /// It held something and the new shader's entry points no longer use it. Its content is
    /// kept aside: a later shader that uses it again, with the same kind and shape, takes it
    /// back ([`Restored`](Self::Restored)).
    Vanished,
    /// It held something of another kind or shape than the new binding takes. Its content is
    /// kept aside (as for [`Vanished`](Self::Vanished)); the new binding is unset until set.
    Changed {
        /// The binding as it was (`uniform buffer \`Material\` (32 bytes)`).
        before: String,
        /// The binding as it is now.
        after: String,
        /// The first difference (a member path and what differs).
        difference: String,
    },
    /// A new binding took back what an earlier replacement kept aside.
    Restored,
    /// A binding the old shader did not use: unset until set.
    Added,
}

/// One binding of one draw in a [`ShaderReload`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReloadedBinding {
    /// The draw's (or compute's) label.
    pub draw: String,
    /// The WGSL binding name.
    pub binding: String,
    /// What happened to it.
    pub fate: BindingFate,
}

/// What [`Gpu::replace_shader`](crate::Gpu::replace_shader) did: the draws, effects and computes
/// it moved, and each of their bindings that held something or is new. Its `Display` lists
/// what was not simply kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ShaderReload {
    /// Draws, effects and computes moved onto the new shader.
    pub operations: usize,
    /// Their bindings, draw by draw, in the new shader's binding order (kept aside ones last).
    pub bindings: Vec<ReloadedBinding>,
}

impl ShaderReload {
    /// How many bindings kept their content.
    pub fn kept(&self) -> usize {
        self.bindings
            .iter()
            .filter(|b| b.fate == BindingFate::Kept)
            .count()
    }

    /// The bindings that did not simply keep their content (vanished, changed, restored,
    /// added): what a hot-reloading app prints.
    pub fn notes(&self) -> impl Iterator<Item = &ReloadedBinding> {
        self.bindings.iter().filter(|b| b.fate != BindingFate::Kept)
    }
}

impl std::fmt::Display for ShaderReload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} draws moved, {} bindings kept",
            self.operations,
            self.kept()
        )?;
        for b in self.notes() {
            write!(f, "; draw {:?} binding `{}` ", b.draw, b.binding)?;
            match &b.fate {
                BindingFate::Kept => write!(f, "kept")?,
                BindingFate::Vanished => write!(f, "is no longer used (its content kept aside)")?,
                BindingFate::Changed {
                    before,
                    after,
                    difference,
                } => write!(
                    f,
                    "changed from {before} to {after}: {difference} (its content kept aside; unset now)"
                )?,
                BindingFate::Restored => write!(f, "is used again (its content restored)")?,
                BindingFate::Added => write!(f, "is new (unset)")?,
            }
        }
        Ok(())
    }
}
