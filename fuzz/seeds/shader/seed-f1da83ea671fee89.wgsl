{decls}@group(0) @binding(0) var<uniform> sx: SX;
@group(0) @binding(1) var<uniform> tx: TX;
