//! `ExportJob`: one Durable Object per static export job. The job pipeline is not built yet; the class
//! exists so the binding and its migration are in place and deployments need no migration later.

use worker::{durable_object, DurableObject, Env, Request, Response, Result, State};

#[durable_object]
pub struct ExportJob {
    #[allow(dead_code)]
    state: State,
}

impl DurableObject for ExportJob {
    fn new(state: State, _env: Env) -> Self {
        Self { state }
    }

    async fn fetch(&self, _req: Request) -> Result<Response> {
        Response::error("static export is not available in this build yet", 501)
    }
}
