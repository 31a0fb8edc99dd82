package io.privmat.job.web;

import io.privmat.job.JobView;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** One page of jobs, newest first. */
@Schema(name = "JobPage")
public record JobPage(List<JobView> items, int offset, int limit, long total) {}
