//! The generated repositories' `save` and `delete` under verify's judge: with verify's
//! samples stored, each repository saves a new aggregate of a new root alone, saves
//! the aggregate of its smallest root sample
//! with the root revised and a new member of each kind (as verify makes them), and
//! deletes the aggregate of the next smallest; then what is stored is judged as verify judges a write:
//! each saved document reads back as written (`stored_as_written`), with the claims
//! its unique values make; each deleted document is gone (or, where the container
//! deletes softly, expiring), with its claims released.

use azure_data_cosmos::clients::DatabaseClient;
use cosmap_mapper::{LogicalModel, Role};
use cosmap_verify::generated::{stored_as_written, SampleMaker};
use cosmap_verify::samples::{Key, Sample};
use serde_json::Value;

use crate::Example;

/// One repository write judged: what (`ticketing: `Order` save`) and how it came out.
pub struct Judged {
    /// The example, the root and the write.
    pub what: String,
    /// Proven, not judged (why), or the first thing found wrong.
    pub outcome: Outcome,
}

/// How a repository write came out.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// What is stored afterwards is what verify expects.
    Proven,
    /// Nothing tells a save from no save (the revision changes nothing, no member is
    /// added): why.
    NotJudged(String),
    /// The first thing found wrong.
    Failed(String),
}

impl From<Result<bool, String>> for Outcome {
    fn from(result: Result<bool, String>) -> Self {
        match result {
            Ok(true) => Outcome::Proven,
            Ok(false) => Outcome::NotJudged("the save changes nothing a read could tell".into()),
            Err(problem) => Outcome::Failed(problem),
        }
    }
}

/// Saves and deletes through every repository of `example` on `database`, where
/// `samples` (verify's, of `logical`, mapped from `domain`) are stored, and judges
/// what each leaves.
pub async fn judge_repository_writes(
    example: &Example,
    domain: &cosmap_domain::DomainModel,
    logical: &LogicalModel,
    database: &DatabaseClient,
    samples: &[Sample],
) -> Vec<Judged> {
    let maker = match SampleMaker::new(domain, logical) {
        Ok(maker) => maker,
        Err(e) => {
            let what = format!("{}: samples", example.name);
            return vec![Judged {
                what,
                outcome: Outcome::Failed(e.to_string()),
            }];
        }
    };
    let judge = Judge {
        example,
        logical,
        database,
        samples,
        maker,
    };
    let mut judged = Vec::new();
    for (root, container, _, kinds) in example.repositories {
        // The smallest aggregates: one batch takes at most 100 documents.
        let mut roots: Vec<(usize, &Sample)> = samples
            .iter()
            .filter(|s| s.container == *container && s.document_type == *root)
            .map(|r| (samples.iter().filter(|s| s.partition_key == r.partition_key).count(), r))
            .collect();
        roots.sort_by_key(|(size, _)| *size);
        let (Some((_, first)), Some((_, last))) = (roots.first(), roots.get(1).or(roots.first())) else {
            continue;
        };
        let what = |write: &str| format!("{}: `{root}` {write}", example.name);
        judged.push(Judged {
            what: what("save of a new aggregate"),
            outcome: judge.save_new(root, first).await.map(|()| true).into(),
        });
        judged.push(Judged {
            what: what("save"),
            outcome: judge.save(root, first, kinds).await.into(),
        });
        judged.push(Judged {
            what: what("delete"),
            outcome: judge.delete(root, last, kinds).await.map(|()| true).into(),
        });
    }
    judged
}

/// What the judge of one example's repositories works with.
struct Judge<'a> {
    example: &'a Example,
    logical: &'a LogicalModel,
    database: &'a DatabaseClient,
    samples: &'a [Sample],
    maker: SampleMaker<'a>,
}

impl Judge<'_> {
    /// Saves `root`'s aggregate revised with a new member of each kind in `kinds`,
    /// then reads each document and claim back; `false` when the save changes nothing.
    async fn save(&self, root: &str, sample: &Sample, kinds: &[&str]) -> Result<bool, String> {
        let revised = self.maker.revised(sample, 1).map_err(|e| e.to_string())?;
        let mut written = vec![revised];
        for kind in kinds {
            let Some(of_kind) = self
                .samples
                .iter()
                .find(|s| s.container == sample.container && type_of(s) == *kind)
            else {
                continue;
            };
            let member = self
                .maker
                .new_document(&sample.container, &of_kind.document_type, 0)
                .map_err(|e| e.to_string())?;
            // A new member under another root's aggregate is not this one's.
            if member.partition_key == sample.partition_key {
                written.push(member);
            }
        }
        let changes = written.len() > 1 || written[0].body != sample.body;
        let members: Vec<Value> = written[1..].iter().map(|s| s.body.clone()).collect();
        let key = sample.partition_key.values();
        (self.example.save)(self.database, root, key, &sample.id, &written[0].body, &members).await?;
        for document in &written {
            self.written(document).await?;
        }
        Ok(changes)
    }

    /// Saves a new aggregate of a new `root` (made like `sample`) alone, then reads it
    /// and its claims back.
    async fn save_new(&self, root: &str, sample: &Sample) -> Result<(), String> {
        let new = self
            .maker
            .new_document(&sample.container, &sample.document_type, 0)
            .map_err(|e| e.to_string())?;
        (self.example.save_new)(self.database, root, &new.body).await?;
        self.written(&new).await
    }

    /// `document` reads back as written, and the claims its unique values make are held.
    async fn written(&self, document: &Sample) -> Result<(), String> {
        let read = self
            .read(&document.container, &document.partition_key, &document.id)
            .await?;
        let read = read.ok_or_else(|| format!("`{}` is not there after the save", document.id))?;
        if let Some(problem) = stored_as_written(&document.body, &read) {
            return Err(format!("`{}`: {problem}", document.id));
        }
        for claim in self.claims(document)? {
            let held = self.read(&claim.container, &claim.partition_key, &claim.id).await?;
            let held =
                held.ok_or_else(|| format!("the claim `{}` of `{}` is not held", claim.partition_key, document.id))?;
            if let Some(problem) = stored_as_written(&claim.body, &held) {
                return Err(format!("the claim of `{}`: {problem}", document.id));
            }
        }
        Ok(())
    }

    /// Deletes `root`'s aggregate, then checks every document it held is gone (or
    /// expiring), and every claim they made released.
    async fn delete(&self, root: &str, sample: &Sample, kinds: &[&str]) -> Result<(), String> {
        let key = sample.partition_key.values();
        let loaded = (self.example.load)(self.database, root, key, &sample.id).await?;
        let loaded = loaded.ok_or_else(|| format!("`{}` loads nothing before the delete", sample.id))?;
        (self.example.delete)(self.database, root, key, &sample.id).await?;
        let ids: Vec<&String> = loaded.iter().flat_map(|(_, ids)| ids).collect();
        let held: Vec<&Sample> = self
            .samples
            .iter()
            .filter(|s| s.container == sample.container && s.partition_key == sample.partition_key)
            .filter(|s| ids.contains(&&s.id) && (s.id == sample.id || kinds.contains(&type_of(s))))
            .collect();
        for document in held {
            if let Some(read) = self
                .read(&document.container, &document.partition_key, &document.id)
                .await?
            {
                if read.get("ttl").is_none_or(Value::is_null) {
                    return Err(format!("`{}` is still there after the delete", document.id));
                }
            }
            for claim in self.claims(document)? {
                if self
                    .read(&claim.container, &claim.partition_key, &claim.id)
                    .await?
                    .is_some()
                {
                    return Err(format!(
                        "the claim `{}` of `{}` is not released",
                        claim.partition_key, document.id
                    ));
                }
            }
        }
        Ok(())
    }

    /// The claims `document`'s unique values make, as verify makes them.
    fn claims(&self, document: &Sample) -> Result<Vec<Sample>, String> {
        let mut claims = Vec::new();
        for c in &self.logical.containers {
            for d in c.document_types.iter().filter(|d| d.role == Role::Claim) {
                let Some(of) = &d.claim_of else { continue };
                if of.container == document.container && of.document_type == document.document_type {
                    claims.push(
                        self.maker
                            .claim_of(&c.name, &d.name, document)
                            .map_err(|e| e.to_string())?,
                    );
                }
            }
        }
        Ok(claims)
    }

    /// A point read: the document, `None` when there is none (404), or the failure.
    async fn read(&self, container: &str, key: &Key, id: &str) -> Result<Option<Value>, String> {
        let client = self
            .database
            .container_client(container, None)
            .await
            .map_err(|e| format!("container `{container}`: {e}"))?;
        match client.read_item(key.sdk(), id, None).await {
            Ok(response) => response.into_model::<Value>().map(Some).map_err(|e| e.to_string()),
            Err(e) if u16::from(e.status()) == 404 => Ok(None),
            Err(e) => Err(format!(
                "reading `{id}` in partition `{key}` of `{container}` failed: {e}"
            )),
        }
    }
}

/// A sample's `type`.
fn type_of(s: &Sample) -> &str {
    s.body.get("type").and_then(Value::as_str).unwrap_or_default()
}
