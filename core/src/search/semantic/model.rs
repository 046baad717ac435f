//! The static embedding model: one vector per WordPiece token, distilled from all-MiniLM-L6-v2 by
//! `scripts/embeddings/distill.py` (its header gives the byte layout). A text's vector is the mean
//! of its tokens' rows, normalised; the rows carry their frequency weight already, so common
//! tokens pull little.

use super::wordpiece::Vocab;

const MAGIC: &[u8; 4] = b"DESM";
const VERSION: u8 = 1;
/// Past this many pieces a section's vector moves no more: the mean has settled.
const MAX_PIECES: usize = 2048;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelError {
    /// Not a model file of this version, or cut short.
    Malformed,
}

/// A model read in place from its file's bytes.
pub struct StaticModel<'a> {
    vocab: Vocab<'a>,
    rows: &'a [u8],
    file_dims: usize,
    dims: usize,
}

impl<'a> StaticModel<'a> {
    /// Reads the model, using its first `dims` dimensions (the PCA's strongest; all when 0 or more
    /// than the file has).
    pub fn parse(bytes: &'a [u8], dims: usize) -> Result<StaticModel<'a>, ModelError> {
        let u32_at = |at: usize| -> Result<usize, ModelError> {
            let b = bytes.get(at..at + 4).ok_or(ModelError::Malformed)?;
            Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
        };
        if bytes.get(..4) != Some(MAGIC.as_slice()) || bytes.get(4) != Some(&VERSION) {
            return Err(ModelError::Malformed);
        }
        let file_dims = u32_at(5)?;
        let tokens = u32_at(9)?;
        let text_len = u32_at(13)?;
        let text = bytes.get(17..17 + text_len).ok_or(ModelError::Malformed)?;
        let text = core::str::from_utf8(text).map_err(|_| ModelError::Malformed)?;
        let vocab: Vec<&str> = text.split('\n').collect();
        let rows = bytes.get(17 + text_len..).ok_or(ModelError::Malformed)?;
        if vocab.len() != tokens || file_dims == 0 || rows.len() != tokens * (4 + file_dims) {
            return Err(ModelError::Malformed);
        }
        let dims = if dims == 0 {
            file_dims
        } else {
            dims.min(file_dims)
        };
        Ok(StaticModel {
            vocab: Vocab::new(vocab),
            rows,
            file_dims,
            dims,
        })
    }

    /// Tells models (and the dimensions used) apart: a publish keeps a batch's vectors only when
    /// its model is the one that made them. FNV-1a over the rows and the dimensions, computed when
    /// asked (a publish step), not at every parse: the request-serving script never needs it.
    pub fn fingerprint(&self) -> u64 {
        self.rows
            .iter()
            .chain(&(self.dims as u32).to_le_bytes())
            .fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            })
    }

    /// A model that knows no token: every text embeds to `None`, so search is BM25 alone.
    pub fn empty() -> StaticModel<'static> {
        StaticModel {
            vocab: Vocab::new(Vec::new()),
            rows: &[],
            file_dims: 1,
            dims: 1,
        }
    }

    pub fn dims(&self) -> usize {
        self.dims
    }

    /// The normalised vector of `text`, or `None` when no token of it is known.
    pub fn embed(&self, text: &str) -> Option<Vec<f32>> {
        let mut sum = vec![0f32; self.dims];
        let mut n = 0usize;
        let stride = 4 + self.file_dims;
        self.vocab.pieces(text, |id| {
            if n >= MAX_PIECES {
                return;
            }
            let Some(row) = self
                .rows
                .get(id as usize * stride..(id as usize + 1) * stride)
            else {
                return;
            };
            let scale = f32::from_le_bytes([row[0], row[1], row[2], row[3]]);
            for (s, &v) in sum.iter_mut().zip(&row[4..4 + self.dims]) {
                *s += scale * f32::from(v as i8);
            }
            n += 1;
        });
        let norm = libm::sqrtf(sum.iter().map(|v| v * v).sum::<f32>());
        if n == 0 || norm <= f32::MIN_POSITIVE {
            return None;
        }
        sum.iter_mut().for_each(|v| *v /= norm);
        Some(sum)
    }
}

/// A model file of `tokens` (each row a deterministic function of the token's text, so words
/// sharing letters point alike), for tests.
#[cfg(test)]
fn test_model_bytes(tokens: &[&str], dims: usize) -> Vec<u8> {
    let text = tokens.join("\n");
    let mut out = MAGIC.to_vec();
    out.push(VERSION);
    out.extend_from_slice(&(dims as u32).to_le_bytes());
    out.extend_from_slice(&(tokens.len() as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(text.as_bytes());
    for token in tokens {
        out.extend_from_slice(&(1.0f32 / 127.0).to_le_bytes());
        for d in 0..dims {
            let hits = token
                .bytes()
                .filter(|b| usize::from(*b) % dims == d)
                .count();
            out.push((hits.min(127) as i8) as u8);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_embed_as_the_mean_of_their_pieces_and_bad_files_are_refused() {
        let bytes = test_model_bytes(&["upload", "limit", "size", "##s"], 8);
        let model = StaticModel::parse(&bytes, 0).unwrap();
        assert_eq!(model.dims(), 8);
        let a = model.embed("Upload limits").unwrap();
        let norm: f32 = a.iter().map(|x| x * x).sum();
        assert!((norm - 1.0).abs() < 1e-4);
        assert_eq!(model.embed("zzz"), None, "no known piece");
        assert_eq!(StaticModel::parse(&bytes, 4).unwrap().dims(), 4);
        assert_ne!(
            StaticModel::parse(&bytes, 4).unwrap().fingerprint(),
            model.fingerprint()
        );
        assert_eq!(
            StaticModel::parse(&bytes[..bytes.len() - 1], 0).err(),
            Some(ModelError::Malformed)
        );
        assert_eq!(
            StaticModel::parse(b"DESM", 0).err(),
            Some(ModelError::Malformed)
        );
    }
}
