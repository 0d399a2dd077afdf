//! Snapshots of rendered pages (`insta`): the test division's standings, crosstable and team
//! pages, and the demo league's.

use axum::http::StatusCode;

use crate::common::*;

async fn page(app: &axum::Router, path: &str) -> String {
    let a = get(app, path).await;
    assert_eq!(a.status, StatusCode::OK, "{path}: {}", a.body);
    masked(&a.body)
}

#[tokio::test]
async fn test_division_pages() {
    let store = store().await;
    let app = app(&store);
    insta::assert_snapshot!("division_standings", page(&app, DIVISION).await);
    insta::assert_snapshot!(
        "division_crosstable",
        page(&app, &format!("{DIVISION}/crosstable")).await
    );
    insta::assert_snapshot!(
        "division_team",
        page(&app, &format!("{DIVISION}/teams/scott")).await
    );
}
