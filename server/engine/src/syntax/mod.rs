//! The syntax layer: parses notation with the tree-sitter grammar and lowers
//! each game to plain Rust types with byte ranges.
//!
//! Parsing never fails: the tree always comes back, and the places where the
//! grammar had to recover (ERROR and MISSING nodes) become [`SyntaxError`]s
//! of the game they stand in. Nothing here knows chess rules or languages;
//! a [`WrittenMove`] is only the parts of a move as they were written.
//!
//! ```
//! let text = "1. e4 e5 2. Кf3 *";
//! let tree = chess_ls_engine::syntax::parse(text, None);
//! let games = chess_ls_engine::syntax::lower(&tree, text);
//! assert_eq!(games.len(), 1);
//! assert_eq!(games[0].mainline.items.len(), 5);
//! ```

use std::ops::Range;
use std::sync::OnceLock;

pub mod containers;
pub mod fast;
pub mod kinds;
pub mod lexicon;
pub mod manuscript;
pub mod markdown;
pub mod restarts;
pub mod slips;
pub mod split;

use tree_sitter::{Language, Node, Parser, Tree, TreeCursor};

/// A byte range in the document.
pub type Span = Range<usize>;

/// How deep variations may nest before the deeper ones are skipped. Every
/// layer above walks a lowered line recursively (the replay, the language
/// inference, even `Drop`), so the depth of a lowered game must be bounded
/// for hostile input (100,000 nested variations) not to overflow the stack;
/// a variation deeper than this is reported once, as a syntax error, and
/// left out. Real annotation nests a handful of levels. The bound is for
/// the 2 MB stacks of worker and test threads: a level of the replay takes
/// about 5.7 KB of stack in a debug build (under 1 KB in release), so 128
/// levels stay under 0.8 MB.
pub const MAX_VARIATION_DEPTH: usize = 128;

/// The grammar as a tree-sitter [`Language`].
pub fn language() -> Language {
    tree_sitter_chess::LANGUAGE.into()
}

/// A parser for the `chess` grammar.
pub fn parser() -> Parser {
    let mut parser = Parser::new();
    // The grammar is compiled into this crate with the ABI of the tree-sitter
    // it links against, so loading it cannot fail at run time.
    parser.set_language(&language()).expect("the chess grammar matches the tree-sitter ABI");
    parser
}

/// Parses a whole text. `old` is the previous tree after `Tree::edit`, for an
/// incremental reparse.
pub fn parse(text: &str, old: Option<&Tree>) -> Tree {
    parse_with(&mut parser(), text, old)
}

/// Parses with a parser the caller keeps (a parser is cheap to reuse).
pub fn parse_with(parser: &mut Parser, text: &str, old: Option<&Tree>) -> Tree {
    parser.parse(text, old).expect("a parser with a language and no timeout always returns a tree")
}

/// One part of a move, a tag or a number: its text and where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub text: &'a str,
    pub span: Span,
}

/// A move as written: every part optional except the destination (or the
/// castling sign, or the second file of `ed`). The analysis decides what
/// the letters mean.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WrittenMove<'a> {
    pub span: Span,
    pub piece: Option<Token<'a>>,
    pub origin: Option<Origin<'a>>,
    pub capture: Option<Token<'a>>,
    pub dash: Option<Token<'a>>,
    pub drop: Option<Token<'a>>,
    pub captured: Option<Token<'a>>,
    pub destination: Option<Token<'a>>,
    /// The second file of a pawn capture written with its files only
    /// (`ed`, `e:d`): the destination's rank is the position's to decide.
    pub to_file: Option<Token<'a>>,
    pub castling: Option<Token<'a>>,
    pub promotion_sign: Option<Token<'a>>,
    pub promotion: Option<Token<'a>>,
    pub en_passant: Option<Token<'a>>,
    pub check: Option<Token<'a>>,
    pub annotation: Option<Token<'a>>,
}

impl<'a> WrittenMove<'a> {
    /// The whole move's text as written.
    pub fn text(&self, source: &'a str) -> &'a str {
        &source[self.span.clone()]
    }
}

/// The origin of a move: the disambiguation of SAN or the first square of
/// long algebraic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin<'a> {
    File(Token<'a>),
    Rank(Token<'a>),
    Square(Token<'a>),
}

impl<'a> Origin<'a> {
    pub fn token(&self) -> &Token<'a> {
        match self {
            Origin::File(t) | Origin::Rank(t) | Origin::Square(t) => t,
        }
    }
}

/// A tag pair `[Name "value"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag<'a> {
    pub span: Span,
    pub name: Token<'a>,
    /// The value without its quotes, escapes still in; `None` when missing.
    pub value: Option<Token<'a>>,
}

impl Tag<'_> {
    /// The value with `\"` and `\\` unescaped.
    pub fn unescaped_value(&self) -> String {
        let Some(value) = &self.value else { return String::new() };
        let mut out = String::with_capacity(value.text.len());
        let mut chars = value.text.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            } else {
                out.push(c);
            }
        }
        out
    }
}

/// A position description: `Белые: Крс1, Фf2; пп. a3, b2.`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionDescription<'a> {
    pub span: Span,
    pub side: Token<'a>,
    /// Pieces, then the pawns after the `;`, in the order written.
    pub placements: Vec<Placement<'a>>,
}

/// One entry of a position description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement<'a> {
    pub span: Span,
    pub piece: Option<Token<'a>>,
    pub square: Token<'a>,
    /// After `пп.`/`pawns`: a square without a letter is a pawn.
    pub in_pawn_list: bool,
}

/// One element of a line of play.
// A move is far larger than the other items, but boxing it would cost an
// allocation per move; items are built once, in order, and never resized.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item<'a> {
    MoveNumber(Token<'a>),
    Move(WrittenMove<'a>),
    NullMove(Token<'a>),
    Nag(Token<'a>),
    Glyph(Token<'a>),
    DrawOffer(Token<'a>),
    Variation(Line<'a>),
    PositionDescription(PositionDescription<'a>),
}

impl Item<'_> {
    /// Where the item starts in the text.
    pub fn start(&self) -> usize {
        match self {
            Item::MoveNumber(t) | Item::NullMove(t) | Item::Nag(t) | Item::Glyph(t) | Item::DrawOffer(t) => {
                t.span.start
            }
            Item::Move(m) => m.span.start,
            Item::Variation(l) => l.span.start,
            Item::PositionDescription(d) => d.span.start,
        }
    }

    /// Where the item ends in the text.
    pub fn end(&self) -> usize {
        match self {
            Item::MoveNumber(t) | Item::NullMove(t) | Item::Nag(t) | Item::Glyph(t) | Item::DrawOffer(t) => t.span.end,
            Item::Move(m) => m.span.end,
            Item::Variation(l) => l.span.end,
            Item::PositionDescription(d) => d.span.end,
        }
    }
}

/// The main line of a game or one variation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line<'a> {
    /// For a variation, from `(` to `)`.
    pub span: Span,
    pub items: Vec<Item<'a>>,
}

/// A place where the grammar had to recover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub span: Span,
    pub message: String,
    /// A slip the reader mended (`slips`): the moves it stands for are in
    /// the lowered game, and this is what to report and its fix.
    pub repair: Option<manuscript::Repair>,
}

/// One game as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameSyntax<'a> {
    pub span: Span,
    pub tags: Vec<Tag<'a>>,
    pub mainline: Line<'a>,
    pub result: Option<Token<'a>>,
    pub errors: Vec<SyntaxError>,
}

impl<'a> GameSyntax<'a> {
    /// The value of the first tag with this name.
    pub fn tag(&self, name: &str) -> Option<&Tag<'a>> {
        self.tags.iter().find(|t| t.name.text == name)
    }
}

/// Node kind and field ids of the grammar, looked up once: comparing ids is
/// much cheaper than comparing kind names on every node.
struct Ids {
    game: u16,
    headers: u16,
    tag: u16,
    movetext: u16,
    move_: u16,
    move_number: u16,
    null_move: u16,
    nag: u16,
    glyph: u16,
    draw_offer: u16,
    variation: u16,
    position_description: u16,
    placement: u16,
    pawns_label: u16,
    result: u16,
    file: u16,
    rank: u16,
    f_number: u16,
    f_piece: u16,
    f_origin: u16,
    f_capture: u16,
    f_dash: u16,
    f_drop: u16,
    f_captured: u16,
    f_destination: u16,
    f_castling: u16,
    f_promotion_sign: u16,
    f_promotion: u16,
    f_en_passant: u16,
    f_check: u16,
    f_annotation: u16,
    f_name: u16,
    f_value: u16,
    f_side: u16,
    f_square: u16,
}

fn ids() -> &'static Ids {
    static IDS: OnceLock<Ids> = OnceLock::new();
    IDS.get_or_init(|| {
        let l = language();
        let kind = |name: &str| {
            let id = l.id_for_node_kind(name, true);
            assert!(id != 0, "node kind {name} is in the grammar");
            id
        };
        let field =
            |name: &str| l.field_id_for_name(name).unwrap_or_else(|| panic!("field {name} is in the grammar")).get();
        Ids {
            game: kind(kinds::GAME),
            headers: kind(kinds::HEADERS),
            tag: kind(kinds::TAG),
            movetext: kind(kinds::MOVETEXT),
            move_: kind(kinds::MOVE),
            move_number: kind(kinds::MOVE_NUMBER),
            null_move: kind(kinds::NULL_MOVE),
            nag: kind(kinds::NAG),
            glyph: kind(kinds::GLYPH),
            draw_offer: kind(kinds::DRAW_OFFER),
            variation: kind(kinds::VARIATION),
            position_description: kind(kinds::POSITION_DESCRIPTION),
            placement: kind(kinds::PLACEMENT),
            pawns_label: kind(kinds::PAWNS_LABEL),
            result: kind(kinds::RESULT),
            file: kind(kinds::FILE),
            rank: kind(kinds::RANK),
            f_number: field(kinds::field::NUMBER),
            f_piece: field(kinds::field::PIECE),
            f_origin: field(kinds::field::ORIGIN),
            f_capture: field(kinds::field::CAPTURE),
            f_dash: field(kinds::field::DASH),
            f_drop: field(kinds::field::DROP),
            f_captured: field(kinds::field::CAPTURED),
            f_destination: field(kinds::field::DESTINATION),
            f_castling: field(kinds::field::CASTLING),
            f_promotion_sign: field(kinds::field::PROMOTION_SIGN),
            f_promotion: field(kinds::field::PROMOTION),
            f_en_passant: field(kinds::field::EN_PASSANT),
            f_check: field(kinds::field::CHECK),
            f_annotation: field(kinds::field::ANNOTATION),
            f_name: field(kinds::field::NAME),
            f_value: field(kinds::field::VALUE),
            f_side: field(kinds::field::SIDE),
            f_square: field(kinds::field::SQUARE),
        }
    })
}

fn token<'a>(node: Node, source: &'a str) -> Token<'a> {
    let span = node.byte_range();
    Token { text: &source[span.clone()], span }
}

/// Lowers every game of a parsed text.
pub fn lower<'a>(tree: &Tree, source: &'a str) -> Vec<GameSyntax<'a>> {
    let mut games = Vec::new();
    lower_each(tree, source, |game| games.push(game));
    games
}

/// Lowers the games of a parsed text one at a time, in order, handing each
/// to `f`. A caller that analyses each game and drops it holds one game in
/// memory instead of a whole file's (`--check` reads files of hundreds of
/// megabytes, and a lowered game is much larger than its text).
pub fn lower_each<'a>(tree: &Tree, source: &'a str, mut f: impl FnMut(GameSyntax<'a>)) {
    let mut f = |mut game: GameSyntax<'a>| {
        slips::mend(&mut game, source);
        restarts::split(game, source, &mut f)
    };
    let root = tree.root_node();
    let mut cursor = root.walk();
    // Syntax errors directly under the root (between games) go to the game
    // after them, or to the last game at the end of the file, so the last
    // game is handed over only at the end.
    let mut pending: Vec<SyntaxError> = Vec::new();
    let mut last: Option<GameSyntax<'a>> = None;
    // When the grammar could not read the text as games at all (100 `(`
    // left open, say), the root itself is an ERROR whose children are loose
    // moves and brackets: each run of them between games is one error, or
    // the text would pass unread.
    let root_is_error = root.is_error();
    let mut loose: Option<Span> = None;
    let flush = |loose: &mut Option<Span>, pending: &mut Vec<SyntaxError>| {
        if let Some(span) = loose.take() {
            pending.push(SyntaxError { message: describe_error(&source[span.clone()]), span, repair: None });
        }
    };
    for child in root.children(&mut cursor) {
        if child.kind_id() == ids().game {
            flush(&mut loose, &mut pending);
            let mut game = lower_game_as_written(child, source);
            game.errors.splice(0..0, pending.drain(..));
            if let Some(previous) = last.replace(game) {
                f(previous);
            }
        } else if root_is_error {
            loose = Some(loose.map_or(child.byte_range(), |span| span.start..child.end_byte()));
        } else if child.is_error() || child.is_missing() {
            collect_errors(child, source, &mut pending);
        }
    }
    flush(&mut loose, &mut pending);
    match last {
        Some(mut game) => {
            game.errors.append(&mut pending);
            f(game);
        }
        None if !pending.is_empty() => {
            // The errors' extent, not the root's: after an incremental
            // reparse the root may or may not cover trailing blanks (found
            // by fuzzing), and a fresh parse must give the same game.
            let start = pending.iter().map(|e| e.span.start).min().unwrap_or(0);
            let end = pending.iter().map(|e| e.span.end).max().unwrap_or(start);
            f(GameSyntax { span: start..end, errors: pending, ..GameSyntax::default() });
        }
        None => {}
    }
}

/// Lowers the games of one piece of text (see [`split`]): by the fast path
/// when it can read the piece, else through the grammar. Either way the
/// games are the same; the fast path only skips building a tree.
pub fn lower_section<'a>(parser: &mut Parser, text: &'a str, mut f: impl FnMut(GameSyntax<'a>)) {
    match fast::lower_fast(text) {
        Some(games) => games.into_iter().for_each(f),
        None => {
            let tree = parse_with(parser, text, None);
            lower_each(&tree, text, &mut f);
        }
    }
}

/// Lowers one `game` node, its slips mended (`slips`).
pub fn lower_game<'a>(node: Node, source: &'a str) -> GameSyntax<'a> {
    let mut game = lower_game_as_written(node, source);
    slips::mend(&mut game, source);
    game
}

/// Lowers one `game` node as the grammar read it.
fn lower_game_as_written<'a>(node: Node, source: &'a str) -> GameSyntax<'a> {
    let ids = ids();
    let mut game = GameSyntax { span: node.byte_range(), ..GameSyntax::default() };
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        let kind = child.kind_id();
        if kind == ids.headers {
            let mut c = child.walk();
            for tag in child.children(&mut c) {
                if tag.kind_id() == ids.tag {
                    game.tags.push(lower_tag(tag, source));
                }
            }
        } else if kind == ids.movetext {
            lower_items(child, source, &mut game.mainline.items, 0, &mut game.errors);
            game.mainline.span = child.byte_range();
        } else if kind == ids.result {
            game.result = Some(token(child, source));
        }
    }
    if node.has_error() {
        collect_errors(node, source, &mut game.errors);
    }
    game
}

fn lower_tag<'a>(node: Node, source: &'a str) -> Tag<'a> {
    let ids = ids();
    let name = node
        .child_by_field_id(ids.f_name)
        .map(|n| token(n, source))
        .unwrap_or(Token { text: "", span: node.start_byte()..node.start_byte() });
    let value = node.child_by_field_id(ids.f_value).map(|n| {
        // Strip the quotes; a value is at least `""`.
        let span = n.start_byte() + 1..n.end_byte().saturating_sub(1).max(n.start_byte() + 1);
        Token { text: &source[span.clone()], span }
    });
    Tag { span: node.byte_range(), name, value }
}

/// Lowers the items of a movetext at variation depth `depth` (0 for the main
/// line); a variation deeper than [`MAX_VARIATION_DEPTH`] becomes an error.
fn lower_items<'a>(
    movetext: Node,
    source: &'a str,
    items: &mut Vec<Item<'a>>,
    depth: usize,
    errors: &mut Vec<SyntaxError>,
) {
    let ids = ids();
    // An item is large (a move has a dozen optional parts), so growing the
    // vector by doubling would copy every item several times; a move may
    // bring its number, hence the half more.
    let children = movetext.child_count() as usize;
    items.reserve(children + children / 2);
    let mut cursor = movetext.walk();
    if !cursor.goto_first_child() {
        return;
    }
    loop {
        let node = cursor.node();
        let kind = node.kind_id();
        if kind == ids.move_ {
            // The grammar attaches a move number to the move after it; the
            // lowered line keeps them apart, as they are written.
            let (number, mv) = lower_move(&mut cursor, source);
            if let Some(number) = number {
                items.push(Item::MoveNumber(number));
            }
            items.push(Item::Move(mv));
        } else if kind == ids.move_number {
            items.push(Item::MoveNumber(token(node, source)));
        } else if kind == ids.variation && depth >= MAX_VARIATION_DEPTH {
            let levels = depth + variation_depth(node);
            errors.push(SyntaxError {
                span: node.byte_range(),
                message: format!("variations nested too deep ({levels} levels); not checked"),
                repair: None,
            });
        } else if kind == ids.variation {
            let mut line = Line { span: node.byte_range(), items: Vec::new() };
            let mut c = node.walk();
            for child in node.children(&mut c) {
                if child.kind_id() == ids.movetext {
                    lower_items(child, source, &mut line.items, depth + 1, errors);
                }
            }
            items.push(Item::Variation(line));
        } else if kind == ids.nag {
            items.push(Item::Nag(token(node, source)));
        } else if kind == ids.glyph {
            items.push(Item::Glyph(token(node, source)));
        } else if kind == ids.draw_offer {
            items.push(Item::DrawOffer(token(node, source)));
        } else if kind == ids.null_move {
            items.push(Item::NullMove(token(node, source)));
        } else if kind == ids.position_description {
            items.push(Item::PositionDescription(lower_position_description(node, source)));
        }
        if !cursor.goto_next_sibling() {
            break;
        }
    }
}

/// How many variations nest at and under `node` (1 for a variation with
/// none inside), walked with a cursor, not recursively: this is what
/// measures hostile nesting.
pub fn variation_depth(node: Node) -> usize {
    let variation = ids().variation;
    let mut cursor = node.walk();
    let mut depth = usize::from(node.kind_id() == variation);
    let mut deepest = depth;
    loop {
        if cursor.goto_first_child() {
            depth += usize::from(cursor.node().kind_id() == variation);
            deepest = deepest.max(depth);
            continue;
        }
        loop {
            if cursor.node() == node {
                return deepest;
            }
            depth -= usize::from(cursor.node().kind_id() == variation);
            if cursor.goto_next_sibling() {
                depth += usize::from(cursor.node().kind_id() == variation);
                deepest = deepest.max(depth);
                break;
            }
            if !cursor.goto_parent() {
                return deepest;
            }
        }
    }
}

/// Lowers the `move` node under `cursor`, with the move number the grammar
/// attached to it, and leaves the cursor on the move again. The caller's
/// cursor is reused because a cursor costs an allocation, and a file has
/// millions of moves.
fn lower_move<'a>(cursor: &mut TreeCursor, source: &'a str) -> (Option<Token<'a>>, WrittenMove<'a>) {
    let ids = ids();
    let mut mv = WrittenMove { span: cursor.node().byte_range(), ..WrittenMove::default() };
    let mut number = None;
    if !cursor.goto_first_child() {
        return (number, mv);
    }
    let mut after_number = false;
    loop {
        let child = cursor.node();
        if after_number && (!child.is_extra() || child.is_error()) {
            // The move itself starts after its number, and after any
            // comment between them: whether tree-sitter puts such a comment
            // inside the move node or before it differs between a fresh and
            // an incremental parse (found by fuzzing). Junk there (`3. Q a6`)
            // is part of the move as written.
            mv.span.start = child.start_byte();
            after_number = false;
        }
        if let Some(field) = cursor.field_id() {
            let field = field.get();
            let t = token(child, source);
            if field == ids.f_number {
                number = Some(t);
                after_number = true;
            } else if field == ids.f_piece {
                mv.piece = Some(t);
            } else if field == ids.f_destination {
                if child.kind_id() == ids.file {
                    mv.to_file = Some(t);
                } else {
                    mv.destination = Some(t);
                }
            } else if field == ids.f_origin {
                let kind = child.kind_id();
                mv.origin = Some(if kind == ids.file {
                    Origin::File(t)
                } else if kind == ids.rank {
                    Origin::Rank(t)
                } else {
                    Origin::Square(t)
                });
            } else if field == ids.f_capture {
                mv.capture = Some(t);
            } else if field == ids.f_check {
                mv.check = Some(t);
            } else if field == ids.f_annotation {
                mv.annotation = Some(t);
            } else if field == ids.f_castling {
                mv.castling = Some(t);
            } else if field == ids.f_promotion {
                mv.promotion = Some(t);
            } else if field == ids.f_promotion_sign {
                mv.promotion_sign = Some(t);
            } else if field == ids.f_en_passant {
                mv.en_passant = Some(t);
            } else if field == ids.f_dash {
                mv.dash = Some(t);
            } else if field == ids.f_captured {
                mv.captured = Some(t);
            } else if field == ids.f_drop {
                mv.drop = Some(t);
            }
        }
        if !cursor.goto_next_sibling() {
            break;
        }
    }
    cursor.goto_parent();
    (number, mv)
}

fn lower_position_description<'a>(node: Node, source: &'a str) -> PositionDescription<'a> {
    let ids = ids();
    let side = node
        .child_by_field_id(ids.f_side)
        .map(|n| token(n, source))
        .unwrap_or(Token { text: "", span: node.start_byte()..node.start_byte() });
    let mut placements = Vec::new();
    let mut in_pawn_list = false;
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        let kind = child.kind_id();
        if kind == ids.pawns_label || child.kind() == kinds::SEMICOLON {
            in_pawn_list = true;
        } else if kind == ids.placement {
            let Some(square) = child.child_by_field_id(ids.f_square) else { continue };
            placements.push(Placement {
                span: child.byte_range(),
                piece: child.child_by_field_id(ids.f_piece).map(|n| token(n, source)),
                square: token(square, source),
                in_pawn_list,
            });
        }
    }
    PositionDescription { span: node.byte_range(), side, placements }
}

/// The syntax errors at and under `node` (an ERROR node between games, say).
pub fn errors_in(node: Node, source: &str) -> Vec<SyntaxError> {
    let mut out = Vec::new();
    collect_errors(node, source, &mut out);
    out
}

/// Collects the ERROR and MISSING nodes under `node`, outermost only. The
/// walk uses a cursor, not recursion: an unclosed `(` repeated 100,000
/// times nests as deep.
fn collect_errors(node: Node, source: &str, out: &mut Vec<SyntaxError>) {
    let mut cursor = node.walk();
    loop {
        let current = cursor.node();
        let descend = if current.is_missing() {
            let what = current.kind();
            out.push(SyntaxError {
                span: current.start_byte()..current.end_byte(),
                message: format!("\"{what}\" is missing here"),
                repair: None,
            });
            false
        } else if current.is_error() {
            let span = current.byte_range();
            let text = &source[span.clone()];
            out.push(SyntaxError { span, message: describe_error(text), repair: None });
            false
        } else {
            current.has_error()
        };
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node() == node {
                return;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// A message for text the grammar could not read, naming the likely cause.
fn describe_error(text: &str) -> String {
    let shown: String = text.chars().take(40).collect();
    let shown = shown.trim();
    let ellipsis = if text.chars().count() > 40 { "…" } else { "" };
    let opens = |o: char, c: char| {
        text.chars().filter(|&x| x == o).count() as isize - text.chars().filter(|&x| x == c).count() as isize
    };
    if opens('(', ')') < 0 || opens('{', '}') < 0 || opens('[', ']') < 0 {
        format!("unbalanced closing bracket in \"{shown}{ellipsis}\"")
    } else if opens('(', ')') > 0 || opens('{', '}') > 0 || opens('[', ']') > 0 {
        format!("unclosed bracket in \"{shown}{ellipsis}\"")
    } else if text.starts_with('[') {
        format!("broken tag pair \"{shown}{ellipsis}\": a tag is written [Name \"value\"]")
    } else {
        format!("\"{shown}{ellipsis}\" is not chess notation")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowers_moves_with_their_parts() {
        let text = "[Event \"x \\\"y\\\"\"]\n\n1. Кbd2+ exd6e.p. 2. Ng1-f3 d8=Q# (2. O-O) 1-0";
        let tree = parse(text, None);
        let games = lower(&tree, text);
        assert_eq!(games.len(), 1);
        let game = &games[0];
        assert_eq!(game.tags[0].unescaped_value(), "x \"y\"");
        assert_eq!(game.result.as_ref().map(|r| r.text), Some("1-0"));
        let moves: Vec<_> =
            game.mainline.items.iter().filter_map(|i| if let Item::Move(m) = i { Some(m) } else { None }).collect();
        assert_eq!(moves[0].piece.as_ref().unwrap().text, "К");
        assert_eq!(moves[0].origin, Some(Origin::File(Token { text: "b", span: 24..25 })));
        assert_eq!(moves[0].check.as_ref().unwrap().text, "+");
        assert_eq!(moves[1].en_passant.as_ref().unwrap().text, "e.p.");
        assert!(matches!(moves[2].origin, Some(Origin::Square(_))));
        assert_eq!(moves[3].promotion.as_ref().unwrap().text, "Q");
        assert!(matches!(game.mainline.items.last(), Some(Item::Variation(_))));
    }

    #[test]
    fn junk_becomes_a_syntax_error_of_its_game() {
        let text = "1. e4 <br/> e5 *\n\n1. d4 d5 *";
        let tree = parse(text, None);
        let games = lower(&tree, text);
        assert!(!games[0].errors.is_empty());
        assert!(games.last().unwrap().errors.is_empty());
    }
}
