//! Table 1's five transformations of the program's text: insert-dead-code (`if (false) x = x;`
//! on a line of its own), add-no-op (`x = x;`), add-parameter (a fresh parameter no caller
//! passes), integer-literal-to-expression and boolean-literal-to-expression (a literal rewritten
//! as an expression of the same value). They derive their follow-ups alike, at a place drawn
//! from the program's sites (`morphtrace_syntax::sites`, or the one a reduction pinned); what each
//! writes, in the program's language, is in `metamorphic::source`. The follow-up must
//! behave as the parent did, its positions mapped (plus the fresh parameter, `undefined`).

use super::{analysis_of, program_choice, Choice, Derive, Deriving, Recipe};
use morphtrace_judges::metamorphic::Transformation;
use rand_chacha::ChaCha8Rng;

/// One of the five, by its transformation.
pub(in crate::metamorphic) struct ProgramText(pub Transformation);

impl Derive for ProgramText {
    fn follow_up(
        &self,
        d: &mut Deriving<'_, '_>,
        base: Recipe,
        rng: &mut ChaCha8Rng,
    ) -> Result<Choice, String> {
        let t = self.0;
        let text = &d.loaded.program.text;
        let transformed = d.analysis.and_then(|a| {
            if d.pin.recorded.is_empty() {
                a.transform_at(text, t, d.pin.line, rng)
            } else {
                a.repeat(text, t, &d.pin.recorded)
            }
        });
        let Some(transformed) = transformed else {
            return Err("the program has no place for it".into());
        };
        if analysis_of(&transformed.text, d.loaded.program.language).is_err() {
            tracing::warn!("{t} produced a program that does not parse; skipped");
            return Err("its program does not parse (ours: a transformation's fault)".into());
        }
        Ok(program_choice(base, transformed))
    }
}
