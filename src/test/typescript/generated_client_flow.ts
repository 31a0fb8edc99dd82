// A whole session through the TypeScript client that openapi-generator's typescript-fetch generator
// makes from openapi.yaml with its default options: keys, dataset, upload, grant, quote, submit,
// poll, a typed result of each of two kinds, budget, and a problem as a ResponseError.
//
// Run by GeneratedClientsTest: compiled with tsc next to the generated sources, then
// node generated_client_flow.js <service URL> <admin key>. Prints "generated typescript client: OK" at the end.
import {
    APIKeysApi, BudgetApi, Configuration, DatasetsApi, JobsApi, QueriesApi, QueryRequest, ResponseError,
} from './index';

// Node's process, declared here so that no @types/node is needed.
declare const process: { argv: string[]; exit(code: number): never };

const [url, adminKey] = process.argv.slice(2);
const api = (key: string) => new Configuration({ basePath: url, accessToken: key });

function check(condition: boolean, what: unknown): void {
    if (!condition) {
        throw new Error('check failed: ' + JSON.stringify(what));
    }
}

async function main(): Promise<void> {
    const suffix = Math.random().toString(16).slice(2, 10);
    const keys = new APIKeysApi(api(adminKey));
    const owner = await keys.createApiKey({ createApiKeyRequest: { name: 'ts-owner-' + suffix, role: 'OWNER' } });
    const analyst = await keys.createApiKey({ createApiKeyRequest: { name: 'ts-analyst-' + suffix, role: 'ANALYST' } });

    const datasets = new DatasetsApi(api(owner.key!));
    const created = await datasets.createDataset({ createDatasetRequest: {
        name: 'generated-typescript', kind: 'MATRIX', rowNormBound: 1, budget: { epsilon: 1, delta: 1e-6 } } });
    check(created.status === 'EMPTY', created);
    // The generated uploadData sends the first content type the contract lists: Matrix Market.
    const rows = 200;
    let body = `%%MatrixMarket matrix array real general\n${rows} 3\n`;
    for (let j = 0; j < 3; j++) {
        for (let i = 0; i < rows; i++) {
            body += `${[0.1 * (i % 7), 0.05 * (i % 5), -0.02 * (i % 3)][j]}\n`;
        }
    }
    const ready = await datasets.uploadData({ id: created.id!, body });
    check(ready.status === 'READY' && ready.rows === rows && ready.cols === 3, ready);
    await datasets.grantAccess({ id: created.id!, grantRequest: { analyst: analyst.subject! } });

    const queries = new QueriesApi(api(analyst.key!));
    const jobs = new JobsApi(api(analyst.key!));
    const run = async (queryRequest: QueryRequest) => {
        const quote = await queries.quote({ datasetId: created.id!, queryRequest });
        check(quote.admissible === true, quote);
        let job = await queries.submit({ datasetId: created.id!, queryRequest });
        const deadline = Date.now() + 60_000;
        while (!['DONE', 'FAILED', 'CANCELLED'].includes(job.state!)) {
            check(Date.now() < deadline, job);
            await new Promise((resolve) => setTimeout(resolve, 200));
            job = await jobs.getJob({ id: job.id! });
        }
        check(job.state === 'DONE', job);
        return { quote, result: await jobs.getJobResult({ id: job.id! }) };
    };

    const sums = await run({ kind: 'COLUMN_SUMS', mechanism: 'GAUSSIAN', rho: 0.005 });
    check(sums.result.kind === 'COLUMN_SUMS', sums.result);
    if (sums.result.kind === 'COLUMN_SUMS') { // narrows QueryResult to ColumnSumsResult
        check(sums.result.columnSums!.length === 3, sums.result);
        console.log('column sums:', sums.result.columnSums!.map((v) => v.toFixed(2)), 'σ =', sums.quote.noise!.sigma);
    }
    const pca = await run({ kind: 'PCA', mechanism: 'ANALYZE_GAUSS', rho: 0.005, params: { k: 2 } });
    check(pca.result.kind === 'PCA', pca.result);
    if (pca.result.kind === 'PCA') {
        check(pca.result.components!.length === 3 && pca.result.components![0].length === 2, pca.result);
        console.log('PCA eigenvalues:', pca.result.eigenvalues!.map((v) => v.toFixed(2)));
    }

    const budget = await new BudgetApi(api(analyst.key!)).getBudget({ datasetId: created.id! });
    check(budget.accounting === 'ZCDP' && budget.spent!.tracks!.rho! > 0, budget);

    try {
        await queries.submit({ datasetId: created.id!, queryRequest: { kind: 'COLUMN_SUMS', mechanism: 'GAUSSIAN', rho: 50 } });
        throw new Error('a query beyond the budget was admitted');
    } catch (e) {
        check(e instanceof ResponseError && e.response.status === 409, String(e));
        const problem = await (e as ResponseError).response.json();
        check(problem.type === 'https://privmat.io/problems/budget-exhausted', problem);
    }
    console.log('generated typescript client: OK');
}

main().catch((e) => {
    console.error(e);
    process.exit(1);
});
