import type { ViewerMessages } from '../viewer-text.js';

/** The viewer's words in German. */
export default {
  sender: { from: 'Geteilt von {name} mit Sharedown' },
  switcher: { label: 'Sprache' },
  refusals: {
    NOT_FOUND: {
      title: 'Link nicht gefunden',
      body: 'Diesen Freigabelink gibt es nicht. Bitte prüfen Sie, ob die Adresse vollständig ist.',
    },
    REVOKED: {
      title: 'Link widerrufen',
      body: 'Die Person, die den Link geteilt hat, hat ihn widerrufen. Der Inhalt ist nicht mehr verfügbar.',
    },
    EXPIRED: { title: 'Link abgelaufen', body: 'Dieser Freigabelink ist abgelaufen. Der Inhalt ist nicht mehr verfügbar.' },
    CONSUMED: {
      title: 'Link aufgebraucht',
      body: 'Dieser Link hat seine Zahl an Aufrufen erreicht. Der Inhalt ist nicht mehr verfügbar.',
    },
    SESSION_TAKEN: {
      title: 'Kein Zugriff',
      body: 'Dieser Link lässt sich nur in der Browsersitzung ansehen, die ihn zuerst geöffnet hat.',
    },
    VISITOR_LIMIT: { title: 'Keine Aufrufe mehr', body: 'Sie haben Ihre Aufrufe dieses Links aufgebraucht.' },
    USER_LIMIT: { title: 'Keine Aufrufe mehr', body: 'Ihr Konto hat seine Aufrufe dieses Links aufgebraucht.' },
  },
  states: {
    serverError: {
      title: 'Etwas ist schiefgelaufen',
      body: 'Der Server kann diese Anfrage gerade nicht bearbeiten. Bitte versuchen Sie es später erneut.',
    },
    serviceUnavailable: {
      title: 'Vorübergehend nicht verfügbar',
      body: 'Der Dienst wird gerade wiederhergestellt. Bitte laden Sie die Seite in einigen Sekunden neu.',
    },
    trashed: {
      title: 'Dokument gelöscht',
      body: 'Die Person, die das Dokument geteilt hat, hat es gelöscht. Der Inhalt ist nicht mehr verfügbar.',
    },
    quarantined: {
      title: 'Dokument in Quarantäne',
      body: 'Der Virenscan hat dieses Dokument als unsicher eingestuft. Der Inhalt ist nicht mehr verfügbar.',
    },
    scanning: {
      title: 'Sicherheitsprüfung läuft',
      body: 'Dieses Dokument wurde gerade hochgeladen und wird geprüft. Laden Sie die Seite gleich neu.',
    },
    scanFailed: {
      title: 'Sicherheitsprüfung verzögert',
      body: 'Die Sicherheitsprüfung dieses Dokuments ist noch nicht abgeschlossen. Sie wird automatisch wiederholt; bitte schauen Sie später wieder vorbei.',
    },
    linkPreview: {
      title: 'Geteiltes Dokument',
      body: 'Dies ist ein Link zu einem geteilten Dokument. Öffnen Sie ihn in einem Browser, um es anzusehen.',
    },
    foreignForm: { title: 'Anfrage abgelehnt', body: 'Formulare müssen von einer Seite dieser Website gesendet werden.' },
    agreementForged: {
      title: 'Anfrage abgelehnt',
      body: 'Dieses Vereinbarungsformular gehört nicht zu diesem Link oder diesem Browser. Öffnen Sie den Link erneut.',
    },
    submitOnSite: { title: 'Anfrage abgelehnt', body: 'Bitte senden Sie dies über die Anmeldeseite dieser Website.' },
    notListed: { title: 'Kein Zugriff', body: 'Das angemeldete Konto ({email}) steht nicht auf der Zugriffsliste dieses Links.' },
    tooManyAttempts: { title: 'Zu viele Versuche', body: 'Zu viele Versuche. Versuchen Sie es in {duration} erneut.' },
    passwordThrottled: {
      title: 'Zu viele Versuche',
      body: 'Zu viele falsche Passwörter. Versuchen Sie es in {duration} erneut.',
    },
    unavailable: {
      title: 'Vorübergehend nicht verfügbar',
      body: 'Das Dokument wird erneut geprüft. Bitte versuchen Sie es später noch einmal.',
    },
    frameExpired: {
      title: 'Link nicht mehr gültig',
      body: 'Diese Seite öffnet sich nur über einen Freigabelink. Öffnen Sie den Freigabelink erneut.',
    },
    loginExpired: { title: 'Anmeldung abgelaufen', body: 'Die Anmeldedaten sind nicht mehr gültig. Öffnen Sie den Link erneut.' },
    passwordLoginOff: {
      title: 'Anmeldung mit Passwort nicht möglich',
      body: 'Dieser Dienst bietet keine Anmeldung mit Passwort an. Bitte melden Sie sich auf anderem Weg an.',
    },
    emailCodesOff: { title: 'Seite nicht gefunden', body: 'Dieser Dienst bietet keine Anmeldung mit E-Mail-Codes an.' },
    reportThrottled: {
      title: 'Zu viele Meldungen',
      body: 'Sie haben zu viele Meldungen gesendet. Bitte versuchen Sie es später erneut.',
    },
    reportReceived: { title: 'Meldung erhalten', body: 'Danke, Ihre Meldung wurde erfasst.' },
    failed: { title: 'Nicht möglich' },
  },
  password: {
    title: 'Passwort erforderlich',
    body: '„{file}“ ist passwortgeschützt. Geben Sie das Passwort ein, um es anzusehen.',
    label: 'Passwort',
    submit: 'Dokument ansehen',
    wrong: 'Das Passwort ist falsch.',
  },
  agreement: {
    title: 'Bitte stimmen Sie der Vereinbarung zu',
    body: 'Bevor Sie „{file}“ ansehen, lesen Sie bitte die folgende Vereinbarung und stimmen Sie ihr zu.',
    bodyUnnamed: 'Bevor Sie dieses Dokument ansehen, lesen Sie bitte die folgende Vereinbarung und stimmen Sie ihr zu.',
    accept: 'Ich habe die Vereinbarung gelesen und stimme ihr zu',
    name: 'Ihr Name',
    submit: 'Zustimmen und fortfahren',
    mustAccept: 'Setzen Sie das Häkchen, um der Vereinbarung zuzustimmen.',
    nameLength: 'Geben Sie Ihren Namen ein (1 bis 100 Zeichen).',
  },
  reveal: {
    title: 'Dokument öffnen',
    ready: '„{file}“ ist bereit.',
    oneTime:
      'Dies ist ein Einmal-Link: Sobald Sie ihn öffnen, wird er ungültig und das Dokument lässt sich nicht erneut ansehen.',
    burn: 'Nach dem Lesen vernichten: Was Sie vorbeigescrollt haben, wird in diesem Browser ausgeblendet.',
    submit: 'Dokument ansehen',
  },
  signIn: {
    title: 'Anmeldung erforderlich',
    body: 'Dieser Link steht nur angemeldeten Nutzern offen. Bitte melden Sie sich zuerst an.',
    email: 'E-Mail',
    password: 'Passwort',
    submit: 'Anmelden und ansehen',
    console: 'In der Konsole anmelden',
    bounce: 'Zum Ansehen anmelden',
    sso: 'Single Sign-on',
    missingFields: 'Geben Sie Ihre E-Mail-Adresse und Ihr Passwort ein.',
    wrongCredentials: 'E-Mail-Adresse oder Passwort ist falsch.',
    ticketExpired: 'Die Bestätigung ist abgelaufen. Geben Sie E-Mail-Adresse und Passwort erneut ein.',
  },
  twoFactor: {
    title: 'Zwei-Faktor-Bestätigung',
    body: 'Geben Sie den 6-stelligen Code aus Ihrer Authenticator-App oder einen Wiederherstellungscode ein.',
    code: 'Code',
    submit: 'Bestätigen und ansehen',
    codeShape: 'Geben Sie einen 6-stelligen Code oder einen Wiederherstellungscode ein.',
    wrongCode: 'Der Code ist falsch oder wurde bereits verwendet.',
  },
  report: {
    link: 'Melden',
    title: 'Diese Freigabe melden',
    body: 'Wenn „{file}“ rechtswidrige, rechtsverletzende, betrügerische oder schädliche Inhalte enthält, nennen Sie uns bitte den Grund.',
    bodyUnnamed:
      'Wenn dieses Dokument rechtswidrige, rechtsverletzende, betrügerische oder schädliche Inhalte enthält, nennen Sie uns bitte den Grund.',
    reason: 'Grund',
    submit: 'Meldung senden',
    reasonLength: 'Beschreiben Sie den Grund in 3 bis 1000 Zeichen.',
  },
  emailCode: {
    offer: 'Kein Passwort? Mit einem Code per E-Mail anmelden:',
    email: 'E-Mail',
    send: 'Code senden',
    requestTitle: 'Mit einem Code anmelden',
    requestBody: 'Geben Sie Ihre E-Mail-Adresse ein, und wir senden Ihnen einen 6-stelligen Code.',
    sendTo: 'Code an {email} senden',
    verifyTitle: 'E-Mail-Adresse bestätigen',
    verifyBody: 'Wir senden einen 6-stelligen Code an {email}. Damit weisen Sie nach, dass die Adresse Ihnen gehört.',
    entryTitle: 'Code eingeben',
    entryBody:
      'Falls {email} verwendet werden kann, ist ein Code unterwegs; er gilt {duration}. Sehen Sie in Ihren E-Mails nach und geben Sie den 6-stelligen Code ein.',
    twoFactorBody:
      'Für dieses Konto ist die Zwei-Faktor-Bestätigung aktiv. Geben Sie den Code aus Ihrer Authenticator-App oder einen Wiederherstellungscode ein.',
    code: 'Code',
    twoFactorCode: 'Zwei-Faktor-Code oder Wiederherstellungscode',
    verify: 'Bestätigen',
    signIn: 'Anmelden und ansehen',
    invalidEmail: 'Geben Sie eine gültige E-Mail-Adresse ein.',
    codeShape: 'Geben Sie den 6-stelligen Code aus der E-Mail ein.',
    wrongCode: 'Der Code ist falsch oder abgelaufen. Fordern Sie einen neuen an.',
    usedCode: 'Der Code wurde bereits verwendet. Fordern Sie einen neuen an.',
  },
  unverified: {
    title: 'E-Mail-Adresse nicht bestätigt',
    body: 'Dieser Link steht nur bestätigten E-Mail-Adressen offen, und die Adresse des angemeldeten Kontos ({email}) ist noch nicht bestätigt.',
    emailLink: 'Adresse mit einem E-Mail-Code bestätigen',
    sso: 'Melden Sie sich per Single Sign-on bei einem Konto an, dessen Adresse Ihr Identitätsanbieter bestätigt, und öffnen Sie den Link dann erneut.',
    none: 'Dieser Dienst kann keine E-Mail-Adressen bestätigen (weder E-Mail-Versand noch Single Sign-on ist eingerichtet). Bitte wenden Sie sich an die Person, die den Link geteilt hat.',
  },
  document: {
    noPrint: 'Dieses Dokument darf nicht gedruckt werden.',
    burnedAll: 'Sie haben das ganze Dokument gelesen; sein Inhalt wurde vernichtet.',
    burnedSome: 'Die gelesenen Teile wurden vernichtet; es geht an der ungelesenen Stelle weiter.',
  },
  collection: {
    label: 'Geteilter Ordner',
    empty: 'Dieser Ordner enthält noch keine Dokumente, die angezeigt werden können.',
    top: 'Oberste Ebene',
    name: 'Name',
    kind: 'Art',
    size: 'Größe',
    changed: 'Zuletzt geändert',
    back: 'Zurück zum Ordner',
    kinds: { HTML: 'HTML', MARKDOWN: 'Markdown', TEXT: 'Text' },
  },
  admin: {
    ownerDisabled: {
      title: 'Konto gesperrt',
      body: 'Das Konto, das diesen Link geteilt hat, wurde von der Administration dieses Dienstes gesperrt. Der Inhalt ist nicht verfügbar.',
    },
    accountDisabled: {
      title: 'Konto gesperrt',
      body: 'Dieses Konto wurde von der Administration dieses Dienstes gesperrt und kann sich nicht anmelden.',
    },
  },
  reports: {
    shareDisabled: {
      title: 'Link gesperrt',
      body: 'Dieser Link wurde nach einer Meldung von der Administration dieses Dienstes gesperrt. Er wird nicht wieder freigegeben; der Inhalt ist nicht verfügbar.',
    },
  },
} satisfies ViewerMessages;
