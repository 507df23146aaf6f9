//! Occlusion queries in a [`Pass`]: begin, end, a closure wrapping draws, and the checks that
//! keep every call wgpu sees valid (`VGPU-QUERY-…`). The set and its read-back are in
//! `occlusion.rs`.

use crate::error::Result;
use crate::pass::Pass;
use crate::query_error::QueryError;

impl Pass<'_> {
    /// Begins occlusion query `index` of the pass's set ([`PassDesc::occlusion`](crate::PassDesc)):
    /// the samples of the draws recorded until
    /// [`end_occlusion_query`](Self::end_occlusion_query) that pass the depth and stencil tests
    /// are counted into it. Refused (nothing recorded) for a pass given no set
    /// (`VGPU-QUERY-NO-SET`), an index out of range (`VGPU-QUERY-INDEX`), a query already open
    /// (`VGPU-QUERY-OPEN`), or an index already used in this pass (`VGPU-QUERY-TWICE`).
    pub fn begin_occlusion_query(&mut self, index: u32) -> Result<()> {
        let Some(occlusion) = self.occlusion.as_deref_mut() else {
            return Err(QueryError::NoSet { index: Some(index) }.into());
        };
        occlusion.begin(index)?;
        self.rpass.begin_occlusion_query(index);
        Ok(())
    }

    /// Ends the open occlusion query. Refused (nothing recorded) when none is open
    /// (`VGPU-QUERY-NOT-OPEN`, or `VGPU-QUERY-NO-SET` in a pass given no set).
    pub fn end_occlusion_query(&mut self) -> Result<()> {
        let Some(occlusion) = self.occlusion.as_deref_mut() else {
            return Err(QueryError::NoSet { index: None }.into());
        };
        if occlusion.open.take().is_none() {
            return Err(QueryError::NotOpen {
                label: occlusion.set_label(),
            }
            .into());
        }
        self.rpass.end_occlusion_query();
        Ok(())
    }

    /// Counts the samples of the draws `record` records into occlusion query `index`: begins it
    /// (refused as [`begin_occlusion_query`](Self::begin_occlusion_query) is, without calling
    /// `record`), runs `record`, ends it, even when `record` fails (then returns its error).
    ///
    /// ```
    /// # let gpu = vgpu::Gpu::noop();
    /// # let target = gpu.target(8, 8)?;
    /// let queries = gpu.occlusion_queries("boxes", 2)?;
    /// gpu.frame(|f| {
    ///     f.pass(vgpu::PassDesc::new(&target).occlusion(&queries), |p| {
    ///         p.occlusion_query(0, |_p| Ok(()))?; // p.draw(&first_box)
    ///         p.occlusion_query(1, |_p| Ok(())) // p.draw(&second_box)
    ///     })
    /// })?;
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub fn occlusion_query(
        &mut self,
        index: u32,
        record: impl FnOnce(&mut Self) -> Result<()>,
    ) -> Result<()> {
        self.begin_occlusion_query(index)?;
        let result = record(self);
        // `record` may have ended the query itself: then its `VGPU-QUERY-NOT-OPEN` is reported.
        let ended = self.end_occlusion_query();
        result.and(ended)
    }

    /// At the end of the pass's closure: ends a query left open (so the pass stays valid) and
    /// reports it with `VGPU-QUERY-UNCLOSED`, unless the closure failed already.
    pub(crate) fn end_occlusion_at_pass_end(&mut self, result: Result<()>) -> Result<()> {
        let Some(occlusion) = self.occlusion.as_deref_mut() else {
            return result;
        };
        let Some(index) = occlusion.open.take() else {
            return result;
        };
        let label = occlusion.set_label();
        self.rpass.end_occlusion_query();
        result.and(Err(QueryError::Unclosed { label, index }.into()))
    }
}
