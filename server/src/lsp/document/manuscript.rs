//! Manuscript documents in the language server: Markdown, plain text and
//! LaTeX, read through `syntax::manuscript` (notation kept at its offsets,
//! prose blanked) and chained by `analysis::manuscript` (a run that goes on
//! from an earlier one starts where that one stopped).
//!
//! A piece is a unit of notation with its setup and the prose after it
//! (so that a move typed after a run's last one is in the run's piece).
//! After an edit the manuscript is read again (an edit may open a fence or
//! a macro far from the text it changes) and the pieces are matched with
//! the old ones from both ends by their notation; a piece whose notation,
//! repairs and possible starts are all as before is kept (only moved), any
//! other is parsed and analysed again. So typing prose analyses nothing,
//! and typing in a run analyses that run and the runs that go on from it.

use std::sync::Arc;

use super::{Document, Kind, Piece};
use crate::analysis::manuscript::{self as chain, Chain, Head, LineRecord, Start};
use crate::analysis::{GameReport, LanguageSource, Options, Trace, trace_game};
use crate::lsp::outline;
use crate::syntax::manuscript::{self, Manuscript, PieceSpec, Repair};
use crate::syntax::{self, GameSyntax};

/// The parser's view of a manuscript document.
pub(super) struct View {
    pub kind: Kind,
    pub ms: Manuscript,
}

impl View {
    pub fn new(kind: Kind, text: &str) -> View {
        let format = kind.manuscript().unwrap_or(manuscript::Format::Text);
        View { kind, ms: manuscript::scan(text, format) }
    }
}

/// The games of a manuscript piece: where each starts and what it leaves
/// for the games after it.
#[derive(Clone, Debug)]
pub struct PieceChain {
    pub games: Vec<ChainedGame>,
    /// The repairs inside the piece (spans relative to it).
    repairs: Vec<Repair>,
}

#[derive(Clone, Debug)]
pub struct ChainedGame {
    /// Where the game starts in the piece.
    pub at: usize,
    head: Head,
    /// The starts it could have, and the one taken.
    candidates: Vec<Start>,
    chosen: usize,
    record: Option<Arc<LineRecord>>,
}

impl ChainedGame {
    pub fn start(&self) -> &Start {
        &self.candidates[self.chosen]
    }
}

/// The piece's notation: its blanked text without the blank prose after it
/// (which only moves).
fn core(source: &str) -> &str {
    source.trim_end()
}

fn relative_repairs(ms: &Manuscript, spec: &PieceSpec) -> Vec<Repair> {
    let r = &spec.range;
    let first = ms.repairs.partition_point(|x| x.span.start < r.start);
    ms.repairs[first..]
        .iter()
        .take_while(|x| x.span.start < r.end)
        .map(|x| Repair { span: x.span.start - r.start..x.span.end - r.start, kind: x.kind.clone() })
        .collect()
}

/// Parses and analyses one piece of a manuscript, chaining its games.
fn build(view: &View, text: &str, spec: &PieceSpec, chain_so_far: &mut Chain, options: &Options, keep: bool, used: u64) -> Piece {
    let range = spec.range.clone();
    let source = &view.ms.blanked[range.clone()];
    let setup = spec.unit.and_then(|u| chain::setup_ref(text, &view.ms.units[u], range.start));
    let tree = (keep || syntax::fast::lower_fast(source).is_none()).then(|| syntax::parse(source, None));
    let (lowered, outline) = match &tree {
        Some(tree) => {
            let lowered = syntax::lower(tree, source);
            let outline = outline::outline(tree, &lowered, source);
            (lowered, outline)
        }
        None => {
            let (lowered, long_comments) =
                syntax::fast::lower_fast_with_comments(source).expect("checked by lower_fast above");
            let outline = outline::outline_without_tree(&lowered, &long_comments, source);
            (lowered, outline)
        }
    };
    let mut games = Vec::with_capacity(lowered.len());
    let mut reports = Vec::with_capacity(lowered.len());
    for (k, game) in lowered.iter().enumerate() {
        let head = Head::of(game);
        let candidates = chain_so_far.candidates(&head, if k == 0 { setup.as_ref() } else { None }, options.language);
        let (chosen, mut report) = chain::choose(game, source, options, &candidates);
        let record = chain::record(game, source, options, &candidates[chosen], &report, &head);
        if let Some(r) = &record {
            chain_so_far.push(r.clone());
        }
        for d in &mut report.diagnostics {
            chain::to_manuscript(&view.ms, d, range.start);
            super::shift_diagnostic(d, -(range.start as isize));
        }
        reports.push(report);
        games.push(ChainedGame { at: game.span.start, head, candidates, chosen, record });
    }
    let repairs = relative_repairs(&view.ms, spec);
    if !repairs.is_empty() {
        if reports.is_empty() {
            reports.push(GameReport {
                span: 0..0,
                language: options.language.unwrap_or(crate::analysis::Language::En),
                language_source: LanguageSource::Undecided,
                diagnostics: Vec::new(),
                plies: 0,
            });
        }
        for repair in &view.ms.repairs {
            if range.start <= repair.span.start && repair.span.start < range.end {
                let mut d = chain::repair_diagnostic(text, repair);
                super::shift_diagnostic(&mut d, -(range.start as isize));
                reports[0].diagnostics.push(d);
            }
        }
        reports[0].diagnostics.sort_by(|a, b| a.span.start.cmp(&b.span.start).then(a.span.end.cmp(&b.span.end)));
    }
    Piece {
        start: range.start,
        len: range.len(),
        tree: tree.filter(|_| keep),
        used,
        games: reports,
        outline,
        chain: Some(Box::new(PieceChain { games, repairs })),
    }
}

/// Whether an old piece can stand for a new one: the same notation and
/// repairs, and every game with the same possible starts as before.
fn still_fits(old: &Piece, old_view: &View, view: &View, spec: &PieceSpec, text: &str, chain_so_far: &Chain, options: &Options) -> bool {
    let Some(old_chain) = &old.chain else { return false };
    if core(&old_view.ms.blanked[old.range()]) != core(&view.ms.blanked[spec.range.clone()]) {
        return false;
    }
    if old_chain.repairs != relative_repairs(&view.ms, spec) {
        return false;
    }
    let setup = spec.unit.and_then(|u| chain::setup_ref(text, &view.ms.units[u], spec.range.start));
    // The records of the piece's own earlier games count for its later ones.
    let mut chain_here = chain_so_far.clone();
    for (k, game) in old_chain.games.iter().enumerate() {
        if chain_here.candidates(&game.head, if k == 0 { setup.as_ref() } else { None }, options.language) != game.candidates {
            return false;
        }
        if let Some(r) = &game.record {
            chain_here.push(r.clone());
        }
    }
    true
}

impl Document {
    pub(super) fn open_manuscript(kind: Kind, text: String, version: i32, options: &Options) -> Document {
        let view = View::new(kind, &text);
        let mut chain_so_far = Chain::default();
        let pieces: Vec<Piece> =
            view.ms.pieces().iter().map(|spec| build(&view, &text, spec, &mut chain_so_far, options, false, 0)).collect();
        let last_reanalysed = pieces.len();
        let rope = ropey::Rope::from_str(&text);
        Document { version, rope, text, pieces, clock: 0, last_reanalysed, manuscript: Some(view) }
    }

    /// Every piece analysed again (the settings changed).
    pub(super) fn rebuild_manuscript(&mut self, options: &Options) {
        let Some(view) = &self.manuscript else { return };
        let mut chain_so_far = Chain::default();
        self.pieces = view
            .ms
            .pieces()
            .iter()
            .map(|spec| build(view, &self.text, spec, &mut chain_so_far, options, false, 0))
            .collect();
        self.last_reanalysed = self.pieces.len();
    }

    /// An edit of a manuscript: the text is read again, and the pieces are
    /// matched with the old ones from both ends.
    pub(super) fn apply_manuscript(&mut self, range: std::ops::Range<usize>, new_text: &str, options: &Options) {
        let start_char = self.rope.byte_to_char(range.start);
        let end_char = self.rope.byte_to_char(range.end);
        self.rope.remove(start_char..end_char);
        self.rope.insert(start_char, new_text);
        self.text.replace_range(range, new_text);
        let Some(old_view) = self.manuscript.take() else { return };
        let view = View::new(old_view.kind, &self.text);
        let specs = view.ms.pieces();
        let old_pieces = std::mem::take(&mut self.pieces);

        // How many pieces match from the start and from the end, by their
        // notation alone (their starts are checked in order below).
        let same = |o: &Piece, s: &PieceSpec| core(&old_view.ms.blanked[o.range()]) == core(&view.ms.blanked[s.range.clone()]);
        let prefix = old_pieces.iter().zip(&specs).take_while(|(o, s)| same(o, s)).count();
        let most = old_pieces.len().min(specs.len()) - prefix;
        let suffix = old_pieces.iter().rev().zip(specs.iter().rev()).take(most).take_while(|(o, s)| same(o, s)).count();

        self.clock += 1;
        let now = self.clock;
        let mut chain_so_far = Chain::default();
        let mut pieces = Vec::with_capacity(specs.len());
        let mut rebuilt = 0;
        let mut old_iter: Vec<Option<Piece>> = old_pieces.into_iter().map(Some).collect();
        let old_len = old_iter.len();
        for (k, spec) in specs.iter().enumerate() {
            let old_index = if k < prefix {
                Some(k)
            } else if k >= specs.len() - suffix {
                Some(old_len - (specs.len() - k))
            } else {
                None
            };
            let reusable = old_index
                .and_then(|i| old_iter[i].take())
                .filter(|old| still_fits(old, &old_view, &view, spec, &self.text, &chain_so_far, options));
            match reusable {
                Some(mut piece) => {
                    if piece.len != spec.range.len() {
                        // Its tree was parsed with other blank space after it.
                        piece.tree = None;
                    }
                    piece.start = spec.range.start;
                    piece.len = spec.range.len();
                    if let Some(c) = &piece.chain {
                        for g in &c.games {
                            if let Some(r) = &g.record {
                                chain_so_far.push(r.clone());
                            }
                        }
                    }
                    pieces.push(piece);
                }
                None => {
                    rebuilt += 1;
                    pieces.push(build(&view, &self.text, spec, &mut chain_so_far, options, true, now));
                }
            }
        }
        self.pieces = pieces;
        self.manuscript = Some(view);
        self.last_reanalysed += rebuilt;
        self.forget_old_trees();
    }

    /// Replays the game at `node` of `piece` (from the start a manuscript
    /// gives it), recording every move; empty when it cannot be replayed.
    pub fn trace_game(&self, piece: &Piece, node: tree_sitter::Node<'_>, options: &Options) -> Trace {
        let source = piece.text(self);
        let game = syntax::lower_game(node, source);
        match self.replayable(piece, game, options) {
            Some((game, options)) => trace_game(&game, source, &options),
            None => Trace::default(),
        }
    }

    /// A span of the parser's text as a span of the document (they differ
    /// only where a manuscript's move was read over a space, `К f3`).
    pub fn to_original(&self, span: &std::ops::Range<usize>) -> std::ops::Range<usize> {
        match &self.manuscript {
            Some(view) => view.ms.span_to_original(span),
            None => span.clone(),
        }
    }

    /// A game of a piece as the analysis must see it: with the start a
    /// manuscript gives it (a FEN tag) and the language it is read in.
    /// `None` when its start is unknown (it cannot be replayed).
    pub fn replayable<'d>(&'d self, piece: &'d Piece, game: GameSyntax<'d>, options: &Options) -> Option<(GameSyntax<'d>, Options)> {
        let Some(c) = &piece.chain else { return Some((game, options.clone())) };
        let Some(chained) = c.games.iter().find(|g| g.at == game.span.start) else { return Some((game, options.clone())) };
        chain::prepared(game, chained.start(), options)
    }
}
