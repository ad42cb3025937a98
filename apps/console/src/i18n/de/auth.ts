/** German messages: signing in and registering: passwords, mailed codes, single sign-on. */
export default {
  auth: {
    loginTitle: 'Anmelden',
    loginSubtitle: 'Melden Sie sich bei Ihrem Sharedown-Konto an.',
    registerTitle: 'Konto erstellen',
    registerSubtitle: 'Legen Sie Dokumente ab und teilen Sie sie über Links, die Sie selbst steuern.',
    email: 'E-Mail',
    password: 'Passwort',
    confirmPassword: 'Passwort wiederholen',
    login: 'Anmelden',
    logout: 'Abmelden',
    register: 'Konto erstellen',
    createAccount: 'Konto erstellen',
    noAccount: 'Noch kein Konto?',
    haveAccount: 'Bereits registriert?',
    emailInvalid: 'Geben Sie eine gültige E-Mail-Adresse ein.',
    passwordRequired: 'Geben Sie Ihr Passwort ein.',
    passwordLength: 'Verwenden Sie {min} bis {max} Zeichen.',
    passwordMismatch: 'Die Passwörter stimmen nicht überein.',
    sessionExpired: 'Ihre Sitzung ist beendet. Melden Sie sich erneut an, um dort weiterzumachen, wo Sie waren.',
  },
  email: {
    unverifiedLogin:
      'Die E-Mail-Adresse dieses Kontos ist noch nicht bestätigt. Melden Sie sich einmal mit einem an sie gesendeten Code an; danach funktioniert Ihr Passwort.',
    codeLink: 'Anmeldecode per E-Mail senden',
    forgotLink: 'Passwort vergessen?',
    backToPassword: 'Mit Passwort anmelden',
    codeTitle: 'Mit E-Mail-Code anmelden',
    codeHelp: 'Wir senden einen 6-stelligen Code an Ihre Adresse. Kein Passwort nötig.',
    codeHelpNew: 'Wir senden einen 6-stelligen Code an Ihre Adresse. Kein Passwort nötig: Die erste Anmeldung legt Ihr Konto an.',
    send: 'Code senden',
    sending: 'Wird gesendet …',
    sentTo: 'Falls {email} einen empfangen kann, ist ein Code unterwegs. Er gilt einmal, innerhalb von 10 Minuten.',
    code: 'Code aus der E-Mail',
    codeRule: 'Geben Sie die 6 Ziffern aus der E-Mail ein.',
    codeWrong: 'Der Code ist falsch, abgelaufen oder wurde schon verwendet. Fordern Sie einen neuen an.',
    signIn: 'Anmelden',
    resend: 'Neuen Code senden',
    otherAddress: 'Andere Adresse verwenden',
    twoFactorHelp:
      'Dieses Konto verlangt auch den zweiten Faktor: einen Code aus Ihrer Authenticator-App oder einen Wiederherstellungscode.',
    twoFactorCode: 'Authenticator-Code oder Wiederherstellungscode',
    resetTitle: 'Passwort zurücksetzen',
    resetHelp:
      'Wir senden einen Code an Ihre Adresse; damit wählen Sie ein neues Passwort. Alle Sitzungen des Kontos werden abgemeldet.',
    resetSubmit: 'Passwort festlegen und anmelden',
    verifyTitle: 'Sehen Sie in Ihre E-Mails',
    verifyHelp:
      'Wir haben einen Code an {email} gesendet, falls die Adresse registriert werden kann. Geben Sie ihn ein, um abzuschließen. Gibt es für die Adresse schon ein Konto, hat dessen Inhaber stattdessen einen Hinweis erhalten: Melden Sie sich an oder setzen Sie das Passwort zurück.',
    verifySubmit: 'Bestätigen und anmelden',
    bannerTitle: 'Ihre E-Mail-Adresse ist nicht bestätigt',
    bannerHelp:
      'Freigabelinks, die auf bestimmte E-Mail-Adressen beschränkt sind, öffnen sich für Sie erst, wenn Ihre Adresse bestätigt ist.',
    bannerSent: 'Wir haben einen Code an {email} gesendet.',
    verify: 'Bestätigen',
    verified: 'Ihre E-Mail-Adresse ist bestätigt.',
    allowlistWarning:
      'Diese Instanz kann keine E-Mail-Adressen bestätigen (weder E-Mail noch Single Sign-on ist eingerichtet). Nur Konten, deren Adresse schon früher bestätigt wurde, können diesen Link öffnen.',
  },
  sso: {
    or: 'oder',
    errorSso:
      'Das Single Sign-on wurde nicht abgeschlossen, und Sie sind nicht angemeldet. Versuchen Sie es erneut oder melden Sie sich anders an.',
    errorUnverified:
      'Ein Konto mit dieser E-Mail-Adresse gibt es bereits, aber Ihr Identitätsanbieter bürgt nicht für die Adresse, daher kann das Single Sign-on dieses Konto nicht öffnen. Melden Sie sich anders an, oder bitten Sie den Anbieter, Ihre Adresse zu bestätigen.',
    passwordOff: 'Diese Instanz meldet nicht mit Passwörtern an.',
    registerOff:
      'Hier werden keine neuen Konten angelegt. Melden Sie sich per Single Sign-on an: Die erste Anmeldung legt Ihr Konto an.',
    emailVerified: 'Bestätigt',
    emailUnverified: 'Nicht bestätigt',
    emailUnverifiedHelp:
      'Freigabelinks, die auf bestimmte E-Mail-Adressen beschränkt sind, öffnen sich für dieses Konto erst, wenn seine Adresse bestätigt ist.',
    title: 'Single Sign-on',
    help: 'Diese Instanz meldet Personen über einen OpenID-Anbieter an. Ihre Administration trägt dort diese Adresse als Weiterleitungs-URI ein:',
    redirectUri: 'Weiterleitungs-URI',
  },
};
