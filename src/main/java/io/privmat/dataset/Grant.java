package io.privmat.dataset;

import java.time.Instant;

/** An analyst (API key subject) allowed to query a dataset. */
public record Grant(String analyst, String grantedBy, Instant grantedAt) {}
