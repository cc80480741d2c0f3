//! PNG copies of the SVG plots, rasterized in pure Rust (resvg) with the
//! system's fonts.

use resvg::{tiny_skia, usvg};

/// Turns SVG documents into PNG images; loads the system fonts once.
pub struct Rasterizer {
    options: usvg::Options<'static>,
}

impl std::fmt::Debug for Rasterizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rasterizer")
            .field("fonts", &self.options.fontdb.len())
            .finish()
    }
}

impl Rasterizer {
    /// Loads the system fonts (none found: text is left out, shapes still drawn).
    pub fn new() -> Self {
        let mut options = usvg::Options::default();
        let fonts = options.fontdb_mut();
        fonts.load_system_fonts();
        if fonts
            .faces()
            .any(|f| f.families.iter().any(|(name, _)| name == "DejaVu Sans"))
        {
            fonts.set_sans_serif_family("DejaVu Sans");
        }
        Rasterizer { options }
    }

    /// Whether any font was found (without one, PNGs have no text).
    pub fn has_fonts(&self) -> bool {
        !self.options.fontdb.is_empty()
    }

    /// The SVG rendered at its own size as PNG bytes, or `None` if it cannot be parsed.
    pub fn png(&self, svg: &str) -> Option<Vec<u8>> {
        let tree = usvg::Tree::from_str(svg, &self.options).ok()?;
        let size = tree.size().to_int_size();
        let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())?;
        resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
        pixmap.encode_png().ok()
    }
}

impl Default for Rasterizer {
    fn default() -> Self {
        Self::new()
    }
}
