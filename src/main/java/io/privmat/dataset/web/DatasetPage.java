package io.privmat.dataset.web;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** One page of datasets, oldest first. */
@Schema(name = "DatasetPage")
public record DatasetPage(List<DatasetView> items, int offset, int limit, long total) {}
