//! A chess position drawn as an inline SVG board (GT-M20: the diagram the President
//! adjudicates from; the final position of an uploaded game). Drawn by the product: no image
//! files, no script; the pieces are the Unicode chess symbols, which every system font has.

use arbiter_core::record::model::Colour;
use arbiter_core::season::game::Diagram;

/// The board as SVG, White at the bottom, files a–h and ranks 1–8 marked. `label` names the
/// position for a screen reader ("Board 3 after 31... Kg7, White to move").
pub fn svg(d: &Diagram, label: &str) -> String {
    const LIGHT: &str = "#eeeed2";
    const DARK: &str = "#b58863";
    let mut out = String::with_capacity(6_000);
    out.push_str(&format!(
        "<svg class=\"diagram\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 8.5 8.5\" role=\"img\" aria-label=\"{}\">",
        escape(label)
    ));
    out.push_str(&format!("<title>{}</title>", escape(label)));
    for (i, rank) in d.ranks.iter().enumerate() {
        for (j, piece) in rank.iter().enumerate() {
            let (x, y) = (j as f32 + 0.5, i as f32);
            let fill = if (i + j) % 2 == 0 { LIGHT } else { DARK };
            out.push_str(&format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"1\" height=\"1\" fill=\"{fill}\"/>"
            ));
            if let Some(p) = piece.and_then(glyph) {
                out.push_str(&format!(
                    "<text x=\"{}\" y=\"{}\" font-size=\"0.85\" text-anchor=\"middle\" fill=\"#000\">{p}</text>",
                    x + 0.5,
                    y + 0.82
                ));
            }
        }
    }
    for (i, rank) in ('1'..='8').rev().enumerate() {
        out.push_str(&format!(
            "<text x=\"0.25\" y=\"{}\" font-size=\"0.35\" text-anchor=\"middle\">{rank}</text>",
            i as f32 + 0.62
        ));
    }
    for (j, file) in ('a'..='h').enumerate() {
        out.push_str(&format!(
            "<text x=\"{}\" y=\"8.38\" font-size=\"0.35\" text-anchor=\"middle\">{file}</text>",
            j as f32 + 1.0
        ));
    }
    out.push_str("</svg>");
    out
}

/// "White to move".
pub fn to_move(d: &Diagram) -> &'static str {
    match d.to_move {
        Colour::White => "White to move",
        Colour::Black => "Black to move",
    }
}

/// The symbol of a piece as FEN writes it: outlined for White, solid for Black.
fn glyph(fen: char) -> Option<&'static str> {
    Some(match fen {
        'K' => "\u{2654}",
        'Q' => "\u{2655}",
        'R' => "\u{2656}",
        'B' => "\u{2657}",
        'N' => "\u{2658}",
        'P' => "\u{2659}",
        'k' => "\u{265A}",
        'q' => "\u{265B}",
        'r' => "\u{265C}",
        'b' => "\u{265D}",
        'n' => "\u{265E}",
        // U+FE0E asks for the text form: some systems draw the black pawn as an emoji.
        'p' => "\u{265F}\u{FE0E}",
        _ => return None,
    })
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gt_m20_the_diagram_has_every_piece_on_its_square() {
        let d = arbiter_core::season::game::diagram("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        let svg = svg(&d, "Board 3 <after 40. Kd1>");
        assert_eq!(svg.matches("<rect").count(), 64);
        assert_eq!(svg.matches('\u{2654}').count(), 1, "the white king");
        assert_eq!(svg.matches('\u{265A}').count(), 1, "the black king");
        assert_eq!(svg.matches('\u{2659}').count(), 1, "the white pawn");
        // The white king on e1: file e is the fifth column, rank 1 the last row.
        assert!(svg.contains("<text x=\"5\" y=\"7.82\""), "{svg}");
        assert!(svg.contains("Board 3 &lt;after 40. Kd1&gt;"));
        assert_eq!(to_move(&d), "White to move");
    }
}
