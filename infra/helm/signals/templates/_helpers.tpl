{{/* The release's name prefix for every object: <release>, or <release>-signals when the release is named otherwise. */}}
{{- define "signals.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Labels every object carries; "component" names the service (or nats, migrations). */}}
{{- define "signals.labels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{/* The labels a selector matches on (never change across upgrades). */}}
{{- define "signals.selectorLabels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "signals.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}

{{- define "signals.natsName" -}}
{{- printf "%s-nats" (include "signals.fullname" .) -}}
{{- end -}}

{{/* NATS_URL: every node of the cluster, by its stable name under the headless Service. */}}
{{- define "signals.natsUrl" -}}
{{- $name := include "signals.natsName" . -}}
{{- $urls := list -}}
{{- range $i := until (int .Values.nats.replicas) -}}
{{- $urls = append $urls (printf "nats://%s-%d.%s-headless:4222" $name $i $name) -}}
{{- end -}}
{{- join "," $urls -}}
{{- end -}}

{{/* Where the other services reach a service: its Service's name and port. */}}
{{- define "signals.serviceUrl" -}}
{{- $service := index .root.Values.services .name -}}
{{- printf "http://%s-%s:%d" (include "signals.fullname" .root) .name (int $service.port) -}}
{{- end -}}

{{/* The hardening every container of the platform gets. */}}
{{- define "signals.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities: { drop: [ALL] }
{{- end -}}

{{/* An env entry reading one key of the platform's Secret. */}}
{{- define "signals.secretEnv" -}}
- name: {{ .key }}
  valueFrom:
    secretKeyRef:
      name: {{ .root.Values.secretName }}
      key: {{ .key }}
      {{- if eq .need "optional" }}
      optional: true
      {{- else if ne .need "required" }}
      {{- fail (printf "services.%s.secretEnv.%s must be required or optional, not %q" .service .key .need) }}
      {{- end }}
{{- end -}}
