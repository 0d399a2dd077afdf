//! Issue 34: published rating lists read from FIDE's XML and TXT files and a national CSV (the
//! small samples in `tests/data/rating_lists/`, whose README says where their layout comes
//! from), players matched to them, and the list in force by date.

// Helpers outside #[test] functions: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use arbiter_core::rating::list::{self, Birth, RatingList};
use arbiter_core::record::model::{Player, PlayerId, RatingRecord};
use arbiter_formats::rating_list::{ListFormat, read};
use jiff::civil::date;

fn sample(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/data/rating_lists/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn summary(l: &RatingList) -> Vec<(String, String, Option<Birth>, u32)> {
    l.entries
        .iter()
        .map(|e| (e.federation_id.clone(), e.name.clone(), e.birth, e.rating))
        .collect()
}

fn row(
    id: &str,
    name: &str,
    birth: Option<Birth>,
    rating: u32,
) -> (String, String, Option<Birth>, u32) {
    (id.into(), name.into(), birth, rating)
}

#[test]
fn fide_txt_is_read_by_its_header_columns_and_the_unrated_left_out() {
    let l = read(
        &sample("fide-standard.txt"),
        ListFormat::FideTxt,
        "FIDE March 2027",
        date(2027, 3, 1),
    )
    .unwrap();
    assert_eq!(l.name, "FIDE March 2027");
    assert_eq!(l.in_force_from, date(2027, 3, 1));
    assert_eq!(
        summary(&l),
        [
            row("2000001", "Able, Ann", Some(Birth::Year(1990)), 2000),
            row("2000002", "Baker, Bob", Some(Birth::Year(1985)), 1990),
            row("2000003", "Cole, Cy", Some(Birth::Year(2009)), 1700),
        ]
    );
}

#[test]
fn fide_xml_is_read_with_entities_and_empty_elements() {
    let l = read(
        &sample("fide-standard.xml"),
        ListFormat::FideXml,
        "FIDE March 2027",
        date(2027, 3, 1),
    )
    .unwrap();
    assert_eq!(
        summary(&l),
        [
            row("2000001", "Able, Ann", Some(Birth::Year(1990)), 2000),
            row("2000002", "Baker, Bob", Some(Birth::Year(1985)), 1990),
            row("2000003", "O'Cole, Cy", Some(Birth::Year(2009)), 1700),
        ]
    );
}

#[test]
fn a_national_csv_is_read_with_dates_of_birth() {
    let l = read(
        &sample("national.csv"),
        ListFormat::Csv,
        "ECF ratings",
        date(2027, 1, 1),
    )
    .unwrap();
    assert_eq!(
        summary(&l),
        [
            row(
                "123456A",
                "Able, Ann",
                Some(Birth::Date(date(1990, 6, 1))),
                2000
            ),
            row("123457B", "Bob Baker", None, 1990),
            row("123458C", "Cole, Cy", Some(Birth::Year(2009)), 1700),
        ]
    );
}

#[test]
fn every_mistake_is_at_its_line() {
    let said = |text: &str, format| {
        read(text, format, "x", date(2027, 1, 1))
            .unwrap_err()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        said(
            "id,name,rating\n1,Ann,2000\n2,Bob,strong\n3,Cy,\n",
            ListFormat::Csv
        ),
        [
            "line 3, rating: the rating `strong` is not a rating; write a whole number of points, e.g. 1850"
        ]
    );
    assert_eq!(
        said("id,name\n1,Ann\n", ListFormat::Csv),
        ["line 1: the header has no `rating` column; a rating list names each player's rating"]
    );
    let txt = sample("fide-standard.txt");
    let broken = txt.replacen("2000002", "Baker  ", 1);
    assert_eq!(
        said(&broken, ListFormat::FideTxt),
        [
            "line 3: the line starts `Baker`, not a FIDE id; each line is a player, the id in its first 15 columns"
        ]
    );
    assert_eq!(
        said("Name,Rating\n", ListFormat::FideTxt),
        [
            "line 1: the first line is not FIDE's header; it names the columns: ID Number, Name, … SRtng (or the month), … Bday, Flag"
        ]
    );
    let xml =
        sample("fide-standard.xml").replacen("<rating>1990</rating>", "<rating>19x0</rating>", 1);
    assert_eq!(
        said(&xml, ListFormat::FideXml),
        [
            "line 4: player 2000002: the rating `19x0` is not a rating; write a whole number of points, e.g. 1850"
        ]
    );
    assert_eq!(
        said(
            "<playerslist>\n<player><fideid>1</fideid>\n",
            ListFormat::FideXml
        ),
        ["line 2: a <player> is not closed by </player>; the file may be cut short"]
    );
}

fn player(name: &str, fide: Option<&str>, born: Option<jiff::civil::Date>) -> Player {
    Player {
        id: PlayerId(name.into()),
        name: name.into(),
        record: RatingRecord {
            birth_date: born,
            federation_id: fide.map(Into::into),
            ..RatingRecord::default()
        },
        ..Player::default()
    }
}

#[test]
fn players_are_matched_by_id_else_name_and_birth_and_the_list_in_force_by_date() {
    let march = read(
        &sample("fide-standard.txt"),
        ListFormat::FideTxt,
        "FIDE March 2027",
        date(2027, 3, 1),
    )
    .unwrap();
    let april = read(
        &sample("fide-standard.xml").replace("<rating>2000</rating>", "<rating>2040</rating>"),
        ListFormat::FideXml,
        "FIDE April 2027",
        date(2027, 4, 1),
    )
    .unwrap();
    let ann = player("Ann Able", Some("2000001"), None);
    let cy = player("Cy Cole", None, Some(date(2009, 5, 5)));
    let stranger = player("Cy Cole", None, Some(date(2010, 5, 5)));
    assert_eq!(march.find(&ann).map(|e| e.rating), Some(2000));
    assert_eq!(march.find(&cy).map(|e| e.rating), Some(1700));
    assert_eq!(march.find(&stranger), None);
    let lists = [april, march];
    let rating_on = |d| {
        list::in_force(&lists, Some(d))
            .and_then(|l| l.find(&ann))
            .map(|e| e.rating)
    };
    assert_eq!(rating_on(date(2027, 2, 28)), None);
    assert_eq!(rating_on(date(2027, 3, 31)), Some(2000));
    assert_eq!(rating_on(date(2027, 4, 1)), Some(2040));
}

/// A roster file gives a player's federation id (`federation_id`), by which a list finds them.
#[test]
fn a_roster_file_gives_the_federation_id() {
    let read = arbiter_formats::roster_csv::read(
        "name,school,grade,federation_id\nAnn Able,Start High School,10,2000001\nBob Baker,Start High School,11,\n",
    );
    assert_eq!(read.problems, []);
    let ids: Vec<Option<&str>> = read
        .rows
        .iter()
        .map(|r| r.federation_id.as_deref())
        .collect();
    assert_eq!(ids, [Some("2000001"), None]);
}
